# contrast: the service (default) and the CLI (nightly report, CI audits) in one small image.
#
#   docker build -t contrast .
#   docker run --rm -p 8080:8080 -v "$PWD/palettes:/palettes:ro" contrast
#   docker run --rm -v "$PWD/palettes:/palettes:ro" contrast audit /palettes

# Build: the official Swift image plus libmicrohttpd's headers; a static Swift runtime, so the
# runtime image needs only libmicrohttpd and libxml2 (Foundation's XML parser, for Android
# resources, links it dynamically).
FROM swift:6.3.1-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Every file the package manifest names: the targets (the plugin and the tests included: SwiftPM
# loads the whole package), the embedded resources and the files their symlinks point to.
COPY Package.swift openapi.yaml ./
COPY web ./web
COPY docs/data ./docs/data
COPY Plugins ./Plugins
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product contrast --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/contrast" /out/contrast

# Run: slim Debian with only the runtime library, as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libxml2 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin contrast
COPY --from=build /out/contrast /usr/local/bin/contrast
COPY palettes /palettes
COPY openapi.yaml /usr/share/contrast/openapi.yaml
USER 10001:10001
ENV CONTRAST_HOST=0.0.0.0 \
    CONTRAST_PORT=8080 \
    CONTRAST_PALETTES=/palettes
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/contrast"]
CMD ["serve"]
