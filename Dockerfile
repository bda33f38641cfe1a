# tokenvend container image.
#   build:  docker build -t tokenvend .
#   run:    docker run -p 8080:8080 -v tokenvend-data:/data tokenvend
# Stage 1 builds a release binary with the Swift standard library linked statically; stage 2 is a slim Debian
# with only the shared libraries that binary still loads. Builder and runtime share one distribution (bookworm),
# so the C libraries found at build time are the ones present at run time. See docs/operations/container.md.

FROM swift:6.3-bookworm AS builder

# The system libraries of Package.swift (COpenSSL, CSodium, CSQLite, CLibPQ, CCurl: libcurl for the Moss upstream,
# CUnistring: Unicode normalisation),
# plus the libxml2 headers that a statically linked Foundation (FoundationNetworking, used by TokenClient) links against.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libcurl4-openssl-dev \
        libpq-dev \
        libsodium-dev \
        libsqlite3-dev \
        libssl-dev \
        libunistring-dev \
        libxml2-dev \
        make \
        pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY Package.swift Makefile ./
COPY scripts ./scripts
COPY Sources ./Sources
COPY Tests ./Tests

# The same build target as the README's `make run` (scripts/lint-container.sh checks that both use it), plus a
# statically linked Swift runtime so the runtime image needs no Swift toolchain. (No BuildKit cache mount, so
# the legacy builder of docker-compose 1.x builds it too.)
RUN make release-tokenvend SWIFT_BUILD_FLAGS=--static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/tokenvend" \
        /out/tokenvend

FROM debian:bookworm-slim

# Only what the binary loads (checked with ldd on a -static-stdlib build): libstdc++ and libgcc from the Swift
# runtime, libcrypto, libsodium, libsqlite3, libpq, libcurl and libunistring for the system-library targets
# (libcurl also for Foundation), libxml2 for Foundation, plus CA certificates for the HTTPS Moss upstream and
# tzdata for time zones.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        libcurl4 \
        libgcc-s1 \
        libpq5 \
        libsodium23 \
        libsqlite3-0 \
        libssl3 \
        libstdc++6 \
        libunistring2 \
        libxml2 \
        tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tokenvend \
    && useradd --system --uid 10001 --gid tokenvend --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin tokenvend \
    && mkdir -p /data /app/Config \
    && chown tokenvend:tokenvend /data \
    && chmod 0700 /data

COPY --from=builder /out/tokenvend /usr/local/bin/tokenvend
# The binary embeds the common-password list (MIT): its notice travels with it.
COPY NOTICE /usr/share/doc/tokenvend/NOTICE

# The working directory holds an optional Config/tokenvend.json (mount one, or pass --config PATH); the
# environment below overrides the file's listen address and database path.
WORKDIR /app
# DL3064 flags the word TOKEN in the names; the values are a listen address and a path, not secrets.
# hadolint ignore=DL3064
ENV TOKENVEND_SERVER_HOST=0.0.0.0 \
    TOKENVEND_DATABASE_PATH=/data/tokenvend.sqlite

VOLUME ["/data"]
EXPOSE 8080
USER 10001:10001

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["tokenvend", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["tokenvend"]
CMD ["serve"]
