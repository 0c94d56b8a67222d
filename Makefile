# Patina build targets. `make` builds the release engine for this machine's CPU
# (`-C target-cpu=native`: AVX2 or AVX-512 for the network's loops where the CPU has them);
# `make EXE=/path/name` also puts it at that path (the OpenBench convention, which builds on the
# machine that plays). `cargo build --release` stays portable (the x86-64 baseline), for a
# binary to copy to another machine. Switching between the two rebuilds the crate.

CARGO ?= cargo
EXE ?=
# Added to any RUSTFLAGS from the environment for `make` / `make build`.
NATIVE_RUSTFLAGS ?= -C target-cpu=native

.PHONY: all build test bench perft lint fmt clean

all: build

build:
	RUSTFLAGS="$(strip $(RUSTFLAGS) $(NATIVE_RUSTFLAGS))" $(CARGO) build --release
ifneq ($(EXE),)
	cp target/release/patina$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)
endif

# The project's test command (what CI runs): unit, perft, rules and UCI-over-pipes tests.
test:
	$(CARGO) test --profile test-release

# Criterion benches (perft and fixed-depth search) and the OpenBench-style bench line.
bench: build
	./target/release/patina bench
	$(CARGO) bench --bench engine

# Perft speed on the classic positions.
perft: build
	./target/release/patina perft 6
	./target/release/patina perft 5 --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
