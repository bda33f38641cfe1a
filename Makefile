# The two commands of the README: `make run` serves with development defaults, `make test` runs every check.
# Both install the system packages they need first (scripts/ensure-system-packages.sh).
SWIFT ?= swift
CONFIG ?=
# Seeds for scripts/check-schemathesis.sh in `make test` (each takes about 30 s).
SCHEMATHESIS_SEEDS ?= 1
# Flags for the release build of `tokenvend` (`make run`, the Dockerfile): the Swift runtime linked statically, so
# the server maps only the runtime code it uses (about 5 MB less idle RSS) and needs no toolchain at run time.
# `make run SWIFT_BUILD_FLAGS=` builds against the toolchain's shared runtime instead.
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib

.PHONY: run test build release release-tokenvend lint lint-container format bench deps

deps:
	@scripts/ensure-system-packages.sh

# The one release build of the server: `make run` and the Dockerfile both use it, so they cannot drift apart.
release-tokenvend: deps
	$(SWIFT) build -c release --product tokenvend $(SWIFT_BUILD_FLAGS)

run: release-tokenvend
	"$$($(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)/tokenvend" serve $(if $(CONFIG),--config $(CONFIG),)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Examples

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Examples

lint-container:
	scripts/lint-container.sh

# The end-to-end suites that `make test` runs a second time with every in-process test server on PostgreSQL
# (TOKENVEND_TEST_BACKEND=postgres: a schema per server, see Tests/TokenServiceTesting/TestBackend.swift). Not
# here, being SQLite-specific: FullDiskTests (a database file on a full tmpfs) and KeyRotationEndToEndTests (servers
# restarted on one SQLite file they name themselves; a test that names its own file keeps SQLite). Also not here,
# because they touch the store no differently than the suites that are: MossEndpoint (the upstream's failures),
# KeyDiscoveryEndpoint (JWKS), ClientAddressEndToEnd (proxy headers), MetricsCardinality, and
# AppleRevocationProcess (the outbox's PostgreSQL claim, release and kill -9 path is EmailOutboxResilience's), and
# PasskeyRefusal (its checks are the pure verifier's; the store paths behind them, challenges used once, counters
# and duplicate credentials, run on PostgreSQL in PasskeyAcrossInstances and the contract tests).
POSTGRES_END_TO_END = TokenServiceTests\.(AccessAndLogout|AccountFlow|CookieCSRF|CookieMode|CredentialHardening|LoginSecurity|Observability|Operations|PasswordRules|RefreshRotation|SessionLimits|StreamCustomerID|StreamToken|VendEndpoint|CachedTokenEndToEnd|KeyRingEndToEnd|TokenExpiryAnswer|IDTokenSignIn|PasswordlessAccount|OAuthFlowPurge|BrowserSignIn|VendAccess|ServerNonce|LinkingTrust|IDTokenFailureLimit|BrowserSignInCap|ProviderTenant|IDTokenSignInAttack|EmailFlows|EmailHousekeeping|AccountDeletion|AccountDeletionEmail|AppleSignInEndToEnd|AppleNotificationsEndToEnd|PasskeyCeremony|PasskeyManagement|PasskeyTokenEndpoint)Tests/|TokenClientEndToEndTests\.|tokenvendTests\.(CommandLineEndToEnd|SharedSessionFileProcess|EmailOutboxResilience|PasswordResetCommand|AccountDeleteEndToEnd)Tests/

# The 30-second SMTP outage (EmailOutboxResilienceTests' outageThenRecovery): a real `tokenvend serve` that waits
# out the outage and its backoff, idle almost all the time. It runs beside the first Swift pass, in its own process
# (`--ignore-lock`: both only read the built tests) with the rest of the executable's tests (CLI_TESTS: about 30 s
# of child processes, which fill that idle time instead of lengthening the longest lane), and not in the PostgreSQL
# pass: the backoff it waits is the same on either backend, and that pass keeps the suite's kill -9 and slow-SMTP
# tests.
OUTAGE_TEST = tokenvendTests\.EmailOutboxResilienceTests/outageThenRecovery
CLI_TESTS = tokenvendTests\.

# The first Swift pass in three processes: TokenServiceTests (the service's end-to-end suites), the executable's
# tests (CLI_TESTS, the outage test among them) and everything else.
SERVICE_TESTS = TokenServiceTests\.

# Lint (beside the build), then the client's portability check (scripts/check-apple-portability.py, its self-test
# first: Linux-only and Apple-only imports outside their #if, Mutex/Atomic, unguarded @Observable, Linux-only
# calls), then every Swift test, then the checks that need the built binary: the OpenAPI document against the
# running server (a scripted session, then schemathesis with every check; `make test SCHEMATHESIS_SEEDS="1 2 3"` for
# more seeds), JWT interoperability with PyJWT, vended tokens checked by the vendors' own SDKs (livekit-api,
# stream-chat, twilio), and the browser sign-in and account-deletion page in headless Chromium (Selenium, an Authlib
# provider). Schemathesis and the chain of the other checks run beside the Swift test processes (each on its own
# server and ports; since issue 35 in the same wave, which took 557 s to the end of the Swift tests alone); one pip
# call, beside the build (the download waits on the network, not the CPU), has installed what they all need. Within one process the
# Swift tests run one at a time: several block their thread on purpose (child processes killed with SIGKILL,
# semaphores that hold the SQLite writer, concurrentPerform races), and on a 2-core machine Swift's cooperative pool
# has two threads, so in parallel they could starve the end-to-end servers' async handlers. Four processes run side
# by side instead, each with its own cooperative pool (and its own throw-away PostgreSQL cluster,
# scripts/with-postgres.sh): the first pass split in three (TokenServiceTests; the executable's tests with the idle
# SMTP outage test; every other target), and the PostgreSQL pass. The machine is mostly waiting during the tests (servers,
# clusters, child processes), so they overlap rather than compete; scripts/swift-test-lane.sh lets their SwiftPM
# planning steps (which lock .build/build.db) run one after the other. docs/DESIGN.md, "Tests", has the last measured
# time. StoreContractTests runs its SQLite and its PostgreSQL half in the first pass, once (it is not in
# POSTGRES_END_TO_END).
test: deps lint-container
	python3 scripts/check-apple-portability.py --self-test
	python3 scripts/check-apple-portability.py
	scripts/concurrently.sh '$(MAKE) --no-print-directory lint' '$(SWIFT) build --build-tests' \
		'scripts/ensure-python-packages.sh --checks'
	python3 scripts/check-readme-examples.py --self-test
	python3 scripts/check-readme-examples.py
	bin="$$($(SWIFT) build --show-bin-path)/tokenvend" && TOKENVEND_BIN="$$bin" scripts/concurrently.sh \
		"scripts/with-postgres.sh scripts/swift-test-lane.sh --skip-build --ignore-lock --no-parallel --filter '$(SERVICE_TESTS)'" \
		"scripts/with-postgres.sh scripts/swift-test-lane.sh --skip-build --ignore-lock --no-parallel --skip '$(SERVICE_TESTS)' --skip '$(CLI_TESTS)'" \
		"scripts/with-postgres.sh scripts/swift-test-lane.sh --skip-build --ignore-lock --no-parallel --filter '$(CLI_TESTS)'" \
		"TOKENVEND_TEST_BACKEND=postgres scripts/with-postgres.sh scripts/swift-test-lane.sh --skip-build --ignore-lock --no-parallel --filter '$(POSTGRES_END_TO_END)' --skip '$(OUTAGE_TEST)'" \
		'scripts/check-schemathesis.sh $(SCHEMATHESIS_SEEDS)' \
		'python3 scripts/check-openapi.py && scripts/jose-interop.sh && python3 scripts/check-app-attest.py && scripts/vendor-sdk-check.sh && scripts/browser-signin.sh'

bench: deps
	$(SWIFT) build -c release --product tokenvend-bench
	.build/release/tokenvend-bench
