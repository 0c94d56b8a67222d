# Patina build targets. `make` builds the release engine for this machine's CPU
# (`-C target-cpu=native`: AVX2 or AVX-512 for the network's loops where the CPU has them);
# `make EXE=/path/name` also puts it at that path (the OpenBench convention, which builds on the
# machine that plays). `cargo build --release` stays portable (the x86-64 baseline), for a
# binary to copy to another machine. Switching between the two rebuilds the crate.
# `make windows` cross-builds patina.exe (below), `make release` every binary a user picks from.

CARGO ?= cargo
EXE ?=
# Added to any RUSTFLAGS from the environment for `make` / `make build`.
NATIVE_RUSTFLAGS ?= -C target-cpu=native
# Where cargo puts `make`'s build: CARGO_TARGET_DIR when set, as cargo itself reads it.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all build test learn bench perft lint fmt clean windows-deps windows windows-check windows-test windows-match aarch64-deps aarch64 aarch64-check release

all: build

build:
	RUSTFLAGS="$(strip $(RUSTFLAGS) $(NATIVE_RUSTFLAGS))" $(CARGO) build --release
ifneq ($(EXE),)
	cp $(TARGET_DIR)/release/patina$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)
endif

# The project's test command (what CI runs): the engine's unit, perft, rules and UCI-over-pipes
# tests, and the learning crate's (datagen, data tools, trainer, WDL fit, averaging).
test:
	$(CARGO) test --profile test-release --workspace

# The learning tools (`learn/`): $(TARGET_DIR)/release/patina-learn. Not part of `make` or
# `make release`.
learn:
	RUSTFLAGS="$(strip $(RUSTFLAGS) $(NATIVE_RUSTFLAGS))" $(CARGO) build --release -p patina-learn

# Criterion benches (perft and fixed-depth search) and the OpenBench-style bench line.
bench: build
	$(TARGET_DIR)/release/patina bench
	$(CARGO) bench --bench engine

# Perft speed on the classic positions.
perft: build
	$(TARGET_DIR)/release/patina perft 6
	$(TARGET_DIR)/release/patina perft 5 --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean

# Windows x86-64, cross-built on Debian from Debian's packages (`make windows-deps` installs
# them, as root). The rustup toolchain has no Windows standard library and cannot fetch one, so
# Debian's rustc (rustc-web) builds std from its source (rust-web-src) with -Zbuild-std, which
# RUSTC_BOOTSTRAP=1 allows on a stable compiler, and MinGW's gcc links. The target is
# x86_64-win7-windows-gnu (tier 3, hence -Zbuild-std anyway), not x86_64-pc-windows-gnu: since
# Rust 1.78 the latter's std imports ProcessPrng from bcryptprimitives.dll, which Debian 12's
# Wine 8.0 lacks, so that .exe does not even start under Wine (exit status 53); the win7
# target's std uses older calls (RtlGenRandom in advapi32), and its .exe runs on Windows 7 to 11
# and on stock Wine, where `make windows-check` tests it. Each CPU level gets its own target
# dir under target/windows/, so neither the Linux build nor another level is rebuilt.
WINDOWS_TARGET ?= x86_64-win7-windows-gnu
# Debian's cargo and rustc (packages cargo-web, rustc-web), which the cross builds below use.
DEBIAN_CARGO ?= /usr/bin/cargo
DEBIAN_RUSTC ?= /usr/bin/rustc
WINDOWS_LINKER ?= x86_64-w64-mingw32-gcc
# The CPU level `make windows` builds (x86-64, x86-64-v3, x86-64-v4).
WINDOWS_LEVEL ?= x86-64
windows_exe = target/windows/$(1)/$(WINDOWS_TARGET)/release/patina.exe
# $(call cross_cargo,COMMAND,TARGET,LINKER,TARGET_DIR): Debian's cargo, building std from
# source for TARGET and linking with LINKER (the Windows and aarch64 builds).
cross_cargo = RUSTC=$(DEBIAN_RUSTC) RUSTC_BOOTSTRAP=1 $(DEBIAN_CARGO) $(1) -Zbuild-std=std,panic_unwind \
	--target $(2) --config 'target.$(2).linker="$(3)"' --target-dir $(4)
# $(call windows_cargo,COMMAND,LEVEL): the Windows target at one CPU level.
windows_cargo = RUSTFLAGS="$(strip $(RUSTFLAGS) -C target-cpu=$(2))" \
	$(call cross_cargo,$(1),$(WINDOWS_TARGET),$(WINDOWS_LINKER),target/windows/$(2))
windows_build = $(call windows_cargo,build --release,$(1))

windows-deps:
	apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 wine

windows:
	@test -x $(DEBIAN_CARGO) || { echo "no $(DEBIAN_CARGO): make windows-deps (Debian)" >&2; exit 2; }
	$(call windows_build,$(WINDOWS_LEVEL))
	@echo "built $(call windows_exe,$(WINDOWS_LEVEL))"

# Under Wine, headless: bench's node count, a UCI game start (LF and CRLF), a refused Hash.
windows-check: windows
	tools/windows_check.sh $(call windows_exe,$(WINDOWS_LEVEL))

# The whole test suite built for Windows and run under Wine (cargo's runner; the UCI tests spawn
# patina.exe, which Wine starts as a Windows child process). Slow: a few minutes to build. No
# doctests: rustdoc cannot use the std that -Zbuild-std builds for another target.
windows-test:
	@test -x $(DEBIAN_CARGO) || { echo "no $(DEBIAN_CARGO): make windows-deps (Debian)" >&2; exit 2; }
	root=$(CURDIR); . tools/wine-env.sh; CARGO_TARGET_$(shell echo $(WINDOWS_TARGET) | tr a-z- A-Z_)_RUNNER=wine \
		$(call windows_cargo,test --profile test-release --lib --bins --tests,$(WINDOWS_LEVEL))

# 20 games at 2+0.02, the Windows build under Wine against the Linux baseline build.
windows-match: windows
	$(call linux_build,x86-64)
	PATINA=target/linux/x86-64/release/patina tools/windows_match.sh $(call windows_exe,$(WINDOWS_LEVEL))

# Linux on 64-bit ARM (Raspberry Pi 4/5, Apple silicon under Linux, Graviton, Ampere), built
# as Windows is: Debian's rustc with std from source, linked by Debian's aarch64 gcc
# (`make aarch64-deps`). The baseline ARMv8-A has NEON, which the net's loops use as they are.
# `make aarch64-check` benches it under qemu-user with release_check.sh (the pinned node count
# must come out).
AARCH64_TARGET ?= aarch64-unknown-linux-gnu
AARCH64_LINKER ?= aarch64-linux-gnu-gcc
aarch64_exe = target/aarch64/$(AARCH64_TARGET)/release/patina
# qemu-user finds the ARM loader and libc where Debian's cross packages put them.
AARCH64_RUN ?= qemu-aarch64 -L /usr/aarch64-linux-gnu

aarch64-deps:
	apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user

aarch64:
	@test -x $(DEBIAN_CARGO) || { echo "no $(DEBIAN_CARGO): make aarch64-deps (Debian)" >&2; exit 2; }
	@command -v $(AARCH64_LINKER) >/dev/null || { echo "no $(AARCH64_LINKER): make aarch64-deps (Debian)" >&2; exit 2; }
	$(call cross_cargo,build --release,$(AARCH64_TARGET),$(AARCH64_LINKER),target/aarch64)
	@echo "built $(aarch64_exe)"

aarch64-check: aarch64
	rm -rf target/aarch64/check && mkdir -p target/aarch64/check
	cp $(aarch64_exe) target/aarch64/check/patina-$(VERSION)-linux-aarch64
	AARCH64_RUN="$(AARCH64_RUN)" tools/release_check.sh target/aarch64/check

# Linux at one CPU level, in its own target dir (target/linux/LEVEL), beside `make`'s native build.
linux_build = RUSTFLAGS="$(strip $(RUSTFLAGS) -C target-cpu=$(1))" $(CARGO) build --release --target-dir target/linux/$(1)

# Every binary a user picks from, in one folder, named patina-VERSION-PLATFORM-LEVEL[.exe], with
# SHA256SUMS: x86-64 is the baseline (SSE2, any 64-bit PC), x86-64-v3 adds AVX2 (Haswell, Zen 1
# and later), x86-64-v4 AVX-512 (Skylake-X, Ice Lake, Zen 4 and later). Each binary this CPU
# runs must bench the pinned node count (tools/release_check.sh; the Windows ones under Wine);
# one it cannot run is reported, not failed. RELEASE_WINDOWS_LEVELS= leaves Windows out (no
# Debian cross toolchain: `make windows-deps`).
RELEASE_DIR ?= target/release-set
RELEASE_LEVELS ?= x86-64 x86-64-v3 x86-64-v4
RELEASE_WINDOWS_LEVELS ?= x86-64 x86-64-v3 x86-64-v4
# RELEASE_AARCH64= leaves Linux aarch64 out (no Debian cross toolchain: `make aarch64-deps`).
RELEASE_AARCH64 ?= yes
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

release:
	rm -rf $(RELEASE_DIR)
	mkdir -p $(RELEASE_DIR)
	set -e; for level in $(RELEASE_LEVELS); do \
		$(call linux_build,$$level); \
		cp target/linux/$$level/release/patina $(RELEASE_DIR)/patina-$(VERSION)-linux-$$level; \
	done
ifneq ($(strip $(RELEASE_WINDOWS_LEVELS)),)
	@test -x $(DEBIAN_CARGO) || { echo "no $(DEBIAN_CARGO): make windows-deps (Debian), or RELEASE_WINDOWS_LEVELS=" >&2; exit 2; }
	set -e; for level in $(RELEASE_WINDOWS_LEVELS); do \
		$(call windows_build,$$level); \
		cp $(call windows_exe,$$level) $(RELEASE_DIR)/patina-$(VERSION)-windows-$$level.exe; \
	done
endif
ifneq ($(strip $(RELEASE_AARCH64)),)
	$(MAKE) aarch64
	cp $(aarch64_exe) $(RELEASE_DIR)/patina-$(VERSION)-linux-aarch64
endif
	AARCH64_RUN="$(AARCH64_RUN)" tools/release_check.sh $(RELEASE_DIR)
