"""The hostile passes' report (hostile_pass.py, hostile_python.py): every line to the log, the
lines that are not ok and a count per class to the terminal; true when every case is ok."""


def report(program, what, lines, log, work):
    """lines: (verdict, text) a case. Returns whether every case is ok."""
    counts = {}
    for verdict, _ in lines:
        counts[verdict] = counts.get(verdict, 0) + 1
    if log:
        with open(log, "w") as f:
            f.write("\n".join(text for _, text in lines) + "\n")
    for verdict, text in lines:
        if verdict != "ok":
            print(text)
    print(f"{program}: {len(lines)} {what}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" (work in {work})")
    return counts.get("ok", 0) == len(lines)
