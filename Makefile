# contrast: the two commands of the README, and a few more for developers.
#   make run   — set up what is missing, build, and serve palettes/ on http://127.0.0.1:8080
#   make test  — set up what is missing, build, and run every test (what CI runs)
#   make unit  — the Swift unit tests alone (swift test); CONTRAST_TEST_SEED=N replays a seed
#   make audit — audit palettes/ against the committed baseline, as CI would
#   make bench — the benchmarks (release builds, loopback only); writes BENCHMARKS.md
#   make fuzz  — the four libFuzzer targets, 5 minutes each (FUZZ_SECONDS to change)
#   make sanitize — the unit tests under ThreadSanitizer and AddressSanitizer
#   make soak  — load and faults against the release server (SOAK_SECONDS, default 300)
#   make soak-bombs — issue #46's bombs against the release server run as the pod runs it, its
#                address space held to the pod's 384 MiB (BOMB_SECONDS, default 120)
#   make install PREFIX=/usr/local — the release binary, shell completions and the man page
#                (DESTDIR for staging; BINARY=path installs that binary instead of building)

SWIFT ?= swift
RELEASE_BIN = .build/release/contrast

.PHONY: run test unit audit bench fuzz sanitize soak soak-bombs deps deps-test build release clean install

FUZZ_SECONDS ?= 300
PREFIX ?= /usr/local
BINARY ?=
INSTALLED = $(DESTDIR)$(PREFIX)

run: deps release
	$(RELEASE_BIN) serve --palettes palettes --host 127.0.0.1 --port 8080

audit: deps release
	$(RELEASE_BIN) audit palettes/ --baseline contrast-baseline.json

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test
	scripts/check-sendable.sh
	scripts/fuzz.sh --runs 20000 800 2000 100
	kubernetes-validate --strict $(filter-out deploy/kubernetes/kustomization.yaml,$(wildcard deploy/kubernetes/*.yaml))
	python3 -m pytest tests/integration -q

unit: deps
	$(SWIFT) test

bench: deps
	bench/run.sh

fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

soak: deps release
	@command -v wrk >/dev/null 2>&1 || apt-get install -y -qq wrk >/dev/null 2>&1 || sudo apt-get install -y -qq wrk >/dev/null
	python3 scripts/soak.py

soak-bombs: deps-test release
	python3 scripts/soak.py --bombs

sanitize: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

deps:
	@scripts/ensure-deps.sh run

deps-test:
	@scripts/ensure-deps.sh test

build:
	$(SWIFT) build

# The binary, its completions for bash, zsh and fish (argument-parser writes them) and
# contrast(1), written from the binary's own description of its options (scripts/manpage.py).
install: $(if $(BINARY),,deps release)
	install -d $(INSTALLED)/bin $(INSTALLED)/share/man/man1 $(INSTALLED)/share/bash-completion/completions \
	  $(INSTALLED)/share/zsh/site-functions $(INSTALLED)/share/fish/vendor_completions.d
	install -m 755 $(or $(BINARY),$(RELEASE_BIN)) $(INSTALLED)/bin/contrast
	$(INSTALLED)/bin/contrast --generate-completion-script bash > $(INSTALLED)/share/bash-completion/completions/contrast
	$(INSTALLED)/bin/contrast --generate-completion-script zsh > $(INSTALLED)/share/zsh/site-functions/_contrast
	$(INSTALLED)/bin/contrast --generate-completion-script fish > $(INSTALLED)/share/fish/vendor_completions.d/contrast.fish
	python3 scripts/manpage.py $(INSTALLED)/bin/contrast > $(INSTALLED)/share/man/man1/contrast.1
	@echo "installed contrast $$($(INSTALLED)/bin/contrast --version) in $(INSTALLED)"

release:
	$(SWIFT) build -c release --product contrast --static-swift-stdlib

clean:
	rm -rf .build
