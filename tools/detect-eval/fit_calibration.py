#!/usr/bin/env python3
"""Fits the curve that turns urlkit's score margin into a confidence
(`CALIBRATION` in crates/urlkit/src/detect/rank.rs).

Input: the points `detect-eval --split tune --points FILE` writes while `CALIBRATION` is
{margin: 1, evidence: 0, bias: 0}, so that each confidence is the logistic of the raw
margin: `confidence non_ascii_bytes right` a line. Fits p(right) = logistic(a * margin +
b * ln(1 + non_ascii) + c) by maximum likelihood (Newton's method) and prints a, b, c.
Confidences at the cap (0.995) are left out: their margin is unknown, and they are
nearly all right.

Usage: fit_calibration.py POINTS
"""
import math
import sys


def main():
    rows = []
    for line in open(sys.argv[1]):
        conf, non_ascii, right = line.split()
        conf = float(conf)
        if conf >= 0.995 or conf <= 0.0:
            continue
        margin = math.log(conf / (1 - conf))
        rows.append(([margin, math.log(1 + int(non_ascii)), 1.0], int(right)))
    w = [1.0, 0.0, 0.0]
    for _ in range(50):
        grad = [0.0] * 3
        hess = [[0.0] * 3 for _ in range(3)]
        for x, y in rows:
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1 / (1 + math.exp(-max(-30, min(30, z))))
            for i in range(3):
                grad[i] += (y - p) * x[i]
                for j in range(3):
                    hess[i][j] -= p * (1 - p) * x[i] * x[j]
        for i in range(3):
            hess[i][i] -= 1e-6
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    print(f"{len(rows)} points below the cap")
    print(f"margin {w[0]:.3f}, evidence {w[1]:.3f}, bias {w[2]:.3f}")


def solve(a, b):
    """Solves a x = b by Gaussian elimination (3 x 3)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


if __name__ == "__main__":
    main()
