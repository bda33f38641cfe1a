# The two commands of the README: `make run` serves with development defaults, `make test` runs every check.
# Both install the system packages they need first (scripts/ensure-system-packages.sh).
SWIFT ?= swift
CONFIG ?=

.PHONY: run test build release lint format bench deps

deps:
	@scripts/ensure-system-packages.sh

run: deps
	$(SWIFT) build -c release --product tokenvend
	.build/release/tokenvend serve $(if $(CONFIG),--config $(CONFIG),)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product tokenvend-bench
	.build/release/tokenvend-bench
