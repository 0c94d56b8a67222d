#!/usr/bin/env python3
"""SPSA over Patina's search tunables, with fastchess playing the games (issue 35).

The tuner follows OpenBench's form of SPSA, so that its inputs are the ones `patina spsa`
prints (`NAME, int, default, min, max, c_end, r_end`) and its runs compare with OpenBench's:

    c_k = c / k^0.101,  a_k = a / (A + k)^0.602,  r_k = a_k / c_k^2
    c = c_end * N^0.101,  a = r_end * c_end^2 * (A + N)^0.602,  A = N / 10

where N is the number of iterations. Each iteration draws a random sign per tunable, plays a
few game pairs between theta + c_k * delta and theta - c_k * delta (same opening, colours
swapped), and moves theta by r_k * c_k * (wins - losses) * delta. Workers run iterations side
by side, one fastchess each, so a 16-core machine plays 16 at a time.

The engine must be a tuning build (`cargo build --release --features tune`), which takes the
tunables by `setoption`; `patina spsa` lists them, all but those only several threads read
(the games are one-thread). The state (theta, the iteration count and the schedule: iterations,
pairs, nodes or clock, the tunables) is saved to --state after every iteration. A rerun with the
same --state resumes on the saved schedule, so it needs only --engine, --book and --state; a
schedule flag that differs from the saved one is refused, since it would change the gain
sequences halfway.

    python3 tools/lab/spsa.py --engine target/release/patina --book noob_3moves.epd \
        --iterations 2000 --workers 16 --nodes 5000 --state spsa.json

prints, at the end, the tuned values as `patina spsa` lines and as `setoption` commands.
--book (an .epd or .pgn opening book) defaults to the environment's BOOK, --fastchess to its
FASTCHESS, else `fastchess` on PATH; neither has another default.
`--stop-after SECONDS` starts no iteration after that long (a lent machine's budget;
tools/lab/device_spsa.sh). `--report` prints where a saved state stands (each tunable against its
default, in units of its c_end) without playing, for a run that is stopped and resumed across
sessions. `--bake src/search/params.rs` writes the state's values, rounded, over the defaults
in that file (the `tunables!` table), for the build a confirmation match plays; a row marked
`threads` keeps its default (a state from before that mark may hold a value for it).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ALPHA = 0.602
GAMMA = 0.101
RESULT = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")


def read_tunables(engine, only):
    """The tunables `engine spsa` lists, as dicts; `only` keeps the named ones (all if empty)."""
    lines = subprocess.run([engine, "spsa"], check=True, capture_output=True, text=True).stdout
    tunables = []
    for line in lines.splitlines():
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            continue
        name, _, default, low, high, c_end, r_end = fields
        if only and name not in only:
            continue
        tunables.append(
            {
                "name": name,
                "default": int(default),
                "min": int(low),
                "max": int(high),
                "c_end": float(c_end),
                "r_end": float(r_end),
            }
        )
    missing = set(only) - {t["name"] for t in tunables}
    if missing:
        sys.exit(f"spsa.py: the engine has no tunable named {', '.join(sorted(missing))}")
    return tunables


class Schedule:
    """OpenBench's gain sequences for one tunable over `iterations` iterations."""

    def __init__(self, tunable, iterations):
        big_a = iterations / 10
        self.c = tunable["c_end"] * iterations**GAMMA
        self.a = tunable["r_end"] * tunable["c_end"] ** 2 * (big_a + iterations) ** ALPHA
        self.big_a = big_a

    def at(self, k):
        """(c_k, r_k) for iteration k, counted from 1."""
        c_k = self.c / k**GAMMA
        a_k = self.a / (self.big_a + k) ** ALPHA
        return c_k, a_k / c_k**2


def play(args, plus, minus, seed):
    """Wins minus losses of `plus` over args.pairs game pairs against `minus`."""
    def engine(name, values):
        options = [f"option.{key}={round(value)}" for key, value in values.items()]
        return ["-engine", f"cmd={args.engine}", f"name={name}", *options]

    command = [
        args.fastchess,
        *engine("plus", plus),
        *engine("minus", minus),
        "-each", f"tc={args.tc}" if args.tc else "tc=inf", "option.Hash=16", "option.Threads=1",
        *([] if args.tc else [f"nodes={args.nodes}"]),
        "-openings", f"file={args.book}", "format=pgn" if args.book.endswith(".pgn") else "format=epd", "order=random",
        "-srand", str(seed), "-rounds", str(args.pairs), "-repeat", "-concurrency", "1",
    ]
    with tempfile.TemporaryDirectory() as scratch:
        # fastchess writes its config.json to the working directory; keep workers apart.
        output = subprocess.run(command, cwd=scratch, capture_output=True, text=True).stdout
    found = RESULT.findall(output)
    if not found:
        raise RuntimeError("fastchess printed no result:\n" + output[-2000:])
    games, wins, losses, _ = map(int, found[-1])
    return wins - losses, games


def report(args):
    """Each tunable's saved value beside its default, largest moves (in c_end units) first."""
    with open(args.state) as saved:
        state = json.load(saved)
    every = read_tunables(args.engine, [])
    listed = {t["name"] for t in every}
    tunables = [t for t in every if t["name"] in state["theta"]]
    start = starting_values(state, tunables)
    print(f"# iteration {state['iteration']}, {state['games']} games, plus-minus {state['score']:+d}")
    if "schedule" in state:
        print("# schedule: " + ", ".join(f"{key} {value}" for key, value in state["schedule"].items() if key != "params"))
    for name in sorted(set(state["theta"]) - listed):
        print(f"# {name} is in the state but not in `patina spsa`'s list (one-thread games do not move it)")
    moved = lambda t: (state["theta"][t["name"]] - start[t["name"]]) / t["c_end"]
    for t in sorted(tunables, key=lambda t: -abs(moved(t))):
        value = state["theta"][t["name"]]
        print(f"{t['name']:40} {start[t['name']]:>7} -> {value:9.2f}  ({moved(t):+.2f} c_end)")


def bake(args):
    """Writes the saved state's values, rounded, as the defaults in the `tunables!` table of
    `args.bake` (`field: type = DEFAULT, NAME, [min, max], step;`), and lists what changed."""
    with open(args.state) as saved:
        theta = json.load(saved)["theta"]
    with open(args.bake) as source:
        text = source.read()
    row = re.compile(r"^(\s*\w+: \w+ = )([-\d_]+)(, (\w+), \[.*)$", re.MULTILINE)
    seen = set()

    def replace(found):
        name = found.group(4)
        if name not in theta:
            return found.group(0)
        seen.add(name)
        if found.group(3).endswith(", threads;"):
            print(f"{name:40} kept: only several threads read it")
            return found.group(0)
        old, new = int(found.group(2).replace("_", "")), round(theta[name])
        if old != new:
            print(f"{name:40} {old:>7} -> {new}")
        written = f"{new:_}" if abs(new) >= 10_000 else str(new)
        return found.group(1) + written + found.group(3)

    text = row.sub(replace, text)
    missing = set(theta) - seen
    if missing:
        sys.exit(f"spsa.py: {args.bake} has no tunable named {', '.join(sorted(missing))}; nothing written")
    with open(args.bake, "w") as source:
        source.write(text)


DEFAULTS = {"pairs": 2, "nodes": 5000, "tc": None}


def resolve_schedule(args, saved):
    """The run's schedule: a new run's from the flags (and DEFAULTS), a resumed run's as saved.
    A flag given on resume must match what was saved; a state saved before schedules were kept
    takes the flags (its tunables are the ones it holds)."""
    given = {
        "iterations": args.iterations,
        "pairs": args.pairs,
        "nodes": args.nodes,
        "tc": args.tc,
        "params": [n for n in args.params.split(",") if n] if args.params is not None else None,
    }
    if saved and "schedule" in saved:
        schedule = saved["schedule"]
        differs = lambda key, value: sorted(value) != sorted(schedule[key]) if key == "params" else value != schedule[key]
        clash = [f"--{key} {value} (saved: {schedule[key]})" for key, value in given.items()
                 if value is not None and differs(key, value)]
        if clash:
            sys.exit(f"spsa.py: {args.state} was run on another schedule: {', '.join(clash)}; "
                     "resume without those flags, or start a new --state")
        return schedule
    schedule = {key: value if value is not None else DEFAULTS.get(key) for key, value in given.items()}
    if saved:
        schedule["params"] = given["params"] or sorted(saved["theta"])
    if not schedule["params"]:
        schedule["params"] = [t["name"] for t in read_tunables(args.engine, [])]
    if not schedule["iterations"] or schedule["iterations"] <= 0:
        sys.exit("spsa.py: a new run needs --iterations N (N > 0); --help for usage")
    return schedule


def starting_values(state, tunables):
    """The values the run started from: saved with the state, since the engine's defaults may
    since have become the tuned ones; a state saved before `start` existed falls back to them."""
    return state.get("start") or {t["name"]: t["default"] for t in tunables}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="a tuning build of patina (needed unless --bake)")
    parser.add_argument("--book", default=os.environ.get("BOOK"), help="EPD or PGN openings (needed unless --report; default $BOOK)")
    parser.add_argument(
        "--fastchess",
        default=os.environ.get("FASTCHESS") or "fastchess",
        help="the fastchess binary (default $FASTCHESS, else fastchess on PATH)",
    )
    parser.add_argument("--iterations", type=int, help="N, which sets the gain sequences (needed to start a run)")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--pairs", type=int, help=f"game pairs per iteration (a new run's default {DEFAULTS['pairs']})")
    parser.add_argument("--nodes", type=int, help=f"nodes a move, unless --tc (a new run's default {DEFAULTS['nodes']})")
    parser.add_argument("--tc", help="a fastchess clock such as 2+0.02 instead of fixed nodes")
    parser.add_argument("--params", help="comma-separated names to tune (a new run's default: all `patina spsa` lists)")
    parser.add_argument("--state", required=True, help="JSON file the run saves to and resumes from")
    parser.add_argument("--report", action="store_true", help="print the saved state against the defaults and stop")
    parser.add_argument(
        "--stop-after",
        type=float,
        help="seconds after which no new iteration starts (those under way finish and are saved), "
        "so a run fits a lent machine's budget",
    )
    parser.add_argument("--bake", metavar="PARAMS_RS", help="write the saved values as the defaults in this file and stop")
    args = parser.parse_args()

    if args.bake:
        bake(args)
        return
    if not args.engine:
        sys.exit("spsa.py: --engine is needed unless --bake; --help for usage")
    if args.report:
        report(args)
        return
    if not args.book:
        sys.exit("spsa.py: playing needs --book FILE (or BOOK=FILE); --help for usage")
    if not os.path.isfile(args.book):
        sys.exit(f"spsa.py: no book file {args.book}")
    fastchess = shutil.which(args.fastchess)
    if fastchess is None:
        sys.exit(f"spsa.py: no fastchess at {args.fastchess}: put it on PATH, set FASTCHESS or pass --fastchess")
    # fastchess runs in a scratch folder per worker and starts the engine from there.
    args.fastchess, args.book = os.path.abspath(fastchess), os.path.abspath(args.book)
    if os.path.isfile(args.engine):
        args.engine = os.path.abspath(args.engine)

    saved = None
    if os.path.exists(args.state):
        with open(args.state) as file:
            saved = json.load(file)
    schedule = resolve_schedule(args, saved)
    tunables = read_tunables(args.engine, schedule["params"])
    schedules = {t["name"]: Schedule(t, schedule["iterations"]) for t in tunables}
    defaults = {t["name"]: t["default"] for t in tunables}
    state = {"iteration": 0, "start": defaults, "theta": {n: float(v) for n, v in defaults.items()}, "score": 0, "games": 0}
    state.update(saved or {})
    # A state saved before `schedule` existed takes the one resolved from the flags from now on.
    state["schedule"] = schedule
    args.iterations, args.pairs, args.nodes, args.tc = (schedule[k] for k in ("iterations", "pairs", "nodes", "tc"))
    # A state saved before `start` existed keeps the engine's defaults set above.
    start = state["start"]
    bounds = {t["name"]: (t["min"], t["max"]) for t in tunables}
    lock = threading.Lock()
    failures = []
    # Iterations handed out; state["iteration"] counts only the finished ones, so a run stopped
    # by hand saves no iteration whose game pairs were never played.
    dispatched = state["iteration"]
    deadline = time.monotonic() + args.stop_after if args.stop_after is not None else None

    def worker():
        nonlocal dispatched
        while True:
            with lock:
                past_deadline = deadline is not None and time.monotonic() >= deadline
                if failures or dispatched >= args.iterations or past_deadline:
                    return
                dispatched += 1
                k = dispatched
                theta = dict(state["theta"])
            delta = {name: random.choice((-1, 1)) for name in theta}
            steps = {name: schedules[name].at(k) for name in theta}
            clamp = lambda name, v: min(max(v, bounds[name][0]), bounds[name][1])
            plus = {n: clamp(n, theta[n] + steps[n][0] * delta[n]) for n in theta}
            minus = {n: clamp(n, theta[n] - steps[n][0] * delta[n]) for n in theta}
            try:
                result, games = play(args, plus, minus, seed=random.randrange(1 << 30))
            except Exception as error:  # a failed game pair stops every worker; the state stays
                with lock:
                    failures.append(f"iteration {k}: {error}")
                return
            with lock:
                for name in state["theta"]:
                    c_k, r_k = steps[name]
                    moved = state["theta"][name] + r_k * c_k * result * delta[name]
                    state["theta"][name] = clamp(name, moved)
                state["iteration"] += 1
                state["score"] += result
                state["games"] += games
                with open(args.state + ".tmp", "w") as out:
                    json.dump(state, out, indent=1)
                os.replace(args.state + ".tmp", args.state)
                print(f"iteration {k}/{args.iterations}: plus-minus {result:+d} over {games} games", flush=True)

    threads = [threading.Thread(target=worker) for _ in range(args.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    if failures:
        sys.exit("spsa.py: stopped; the state file keeps the iterations before it\n" + "\n".join(failures))
    print(f"# {state['games']} games, {state['iteration']} iterations")
    for t in tunables:
        value = round(state["theta"][t["name"]])
        print(f"{t['name']}, int, {value}, {t['min']}, {t['max']}, {t['c_end']}, {t['r_end']}  # was {start[t['name']]}")
    for t in tunables:
        print(f"setoption name {t['name']} value {round(state['theta'][t['name']])}")


if __name__ == "__main__":
    main()
