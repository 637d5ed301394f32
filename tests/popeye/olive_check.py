#!/usr/bin/env python3
"""Olive's own code against `vorpal popeye` (a manual check: Olive is no package, so CI
cannot install it).

Olive (https://github.com/dturevski/olive-gui, GPL-3) writes its Popeye input with
`legacy.popeye.create_input` from a board made by `board.Board`, adds its sticky options
(`Variation NoBoard`), makes its legal-moves inputs (`~1`, `HalfDuplex` for Black) as its
`makeListLegal` does, and starts its Popeye as `<path> -maxmem 1024M <file>`. This script
does exactly that with Olive's modules for a set of Alice problems, runs Vorpal through a
symlink named `py`, checks that each run exits 0 with nothing on stderr and a solution, and,
given Popeye's binary, that both print the same lines (the first and the time lines masked,
sibling lines in any order). Last it feeds both pages to Olive's compact view's reader
(`legacy.popeye.parse_output`) and reports what it reads.

    OLIVE_DIR=/path/to/olive-gui python3 tests/popeye/olive_check.py target/release/vorpal [py]

Exit status 0 when every check passed.
"""

import copy
import os
import subprocess
import sys
import tempfile

# Alice problems as Olive stores them (its entry format: algebraic pieces with specs,
# options holding Popeye's options and conditions).
ENTRIES = [
    {
        "name": "#2, tries",
        "algebraic": {"white": ["Kc6", "Pb7", "AliceB Rh1"], "black": ["Ka7"]},
        "stipulation": "#2",
        "options": ["Alice", "Try"],
    },
    {
        "name": "#2, Andernach 2025 (7th)",
        "algebraic": {
            "white": ["Kd1", "Qd7", "Rh4", "Ba5", "Pa4", "Pd4", "Pd5", "Pd6", "Pe4", "Pf2",
                      "AliceB Sc6", "AliceB Se6", "AliceB Pb3", "AliceB Pe2"],
            "black": ["Kd3", "Ra3", "Rg8", "Ba7", "Bb1", "Pb7", "Pf6",
                      "AliceB Sd8", "AliceB Sh6", "AliceB Pa6", "AliceB Ph3"],
        },
        "stipulation": "#2",
        "options": ["Alice", "Try", "Threat 1"],
    },
    {
        "name": "h#2, set play",
        "algebraic": {"white": ["Kc6", "Rd1"], "black": ["Ka8", "Pa7"]},
        "stipulation": "h#2",
        "options": ["Alice", "SetPlay"],
    },
    {
        "name": "h#2, twins",
        "algebraic": {"white": ["Kc6", "AliceB Qb5"], "black": ["Ka8", "Pa7"]},
        "stipulation": "h#2",
        "options": ["Alice"],
        "twins": {"b": "Move c6 c7"},
    },
    {
        "name": "h=2, half-duplex",
        "algebraic": {"white": ["Kc6", "AliceB Qb5"], "black": ["Ka8", "Pa7"]},
        "stipulation": "h=2",
        "options": ["Alice", "HalfDuplex"],
    },
    {
        "name": "ser-#3",
        "algebraic": {"white": ["Kc6", "Rd1"], "black": ["Ka8", "AliceB Pa5"]},
        "stipulation": "ser-#3",
        "options": ["Alice"],
        # Popeye drops some series lines Vorpal lists (docs/popeye.md): Popeye's lines must
        # all be Vorpal's, the extra ones are shown.
        "vorpal_lists_more": True,
    },
]

STICKY = ["Variation", "NoBoard"]


def olive_inputs(popeye, board_module, entry):
    """Olive's inputs for `entry`: its solve input, then its legal moves of White and Black."""
    board = board_module.Board()
    board.fromAlgebraic(entry["algebraic"])
    pieces = board.toPopeyePiecesClause()
    helper = board_module.FairyHelper.instance
    inputs = [("solve", popeye.create_input(entry, False, copy.deepcopy(STICKY), pieces, helper))]
    for color in ["white", "black"]:
        legal = copy.deepcopy(entry)
        legal["stipulation"] = "~1"
        legal.pop("twins", None)
        legal["options"] = [o for o in legal["options"]
                            if o not in ["SetPlay", "WhiteToPlay", "Duplex", "HalfDuplex"]]
        if color == "black":
            legal["options"].append("HalfDuplex")
        inputs.append((f"legal {color}",
                       popeye.create_input(legal, False, copy.deepcopy(STICKY), pieces, helper)))
    return inputs


def run(program, text):
    """Runs `program -maxmem 1024M FILE` as Olive does; (status, stdout, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".inp", delete=False, encoding="utf8") as f:
        f.write(text)
        name = f.name
    try:
        done = subprocess.run([program, "-maxmem", "1024M", name], capture_output=True,
                              text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr
    finally:
        os.unlink(name)


def comparable(page):
    """The page's lines without the first line and the times, sorted (siblings in any order)."""
    lines = page.split("\n")[1:]
    return sorted(line for line in lines if "Time =" not in line and line.strip())


def compact(popeye, entry, page):
    """What Olive's compact view makes of `page`: 'read' or the reader's complaint."""
    try:
        popeye.parse_output(entry, page)
        return "read"
    except Exception as e:  # Olive's reader raises its own errors and plain ones alike
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def main():
    olive = os.environ.get("OLIVE_DIR")
    if not olive or len(sys.argv) < 2:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    vorpal = os.path.abspath(sys.argv[1])
    popeye_bin = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.path.insert(0, olive)
    os.chdir(olive)  # Olive reads its conf/ files from the working directory
    import board as board_module  # noqa: E402 (Olive's modules)
    import legacy.popeye as popeye  # noqa: E402

    work = tempfile.mkdtemp()
    py = os.path.join(work, "py")
    os.symlink(vorpal, py)
    failures = 0
    for entry in ENTRIES:
        for kind, text in olive_inputs(popeye, board_module, entry):
            status, out, err = run(py, text)
            ok = status == 0 and not err.strip() and "solution finished" in out
            verdict = "ok" if ok else f"FAILED (exit {status}, stderr {err.strip()[:200]!r})"
            same = ""
            if popeye_bin:
                _, reference, _ = run(popeye_bin, text)
                mine, theirs = comparable(out), comparable(reference)
                extra = [line for line in mine if line not in theirs]
                if mine == theirs:
                    same = ", the same lines as Popeye"
                elif entry.get("vorpal_lists_more") and all(line in mine for line in theirs):
                    same = f", Popeye's lines and {len(extra)} more: " + "; ".join(x.strip() for x in extra)
                else:
                    ok = False
                    same = ", DIFFERENT from Popeye"
            failures += not ok
            print(f"{entry['name']} / {kind}: {verdict}{same}; Olive's compact view: "
                  f"{compact(popeye, entry, out)}"
                  + (f" (Popeye's page: {compact(popeye, entry, reference)})" if popeye_bin else ""))
            if not ok:
                print(text)
                print(out)
    os.unlink(py)
    os.rmdir(work)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
