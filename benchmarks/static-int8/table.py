"""Static int8 grids for YuNet-s's 1×1 layers from calibration histograms.

Reads the histograms the simulation patch writes (`FP_QSIM=calib:PATH`,
benchmarks/static-int8/simulation.patch): per layer key, `KEY-in` and
`KEY-out`, each a list of `bin:count` over 4096 bins of |x| (a float's
exponent and top four mantissa bits) and bin 4096, the count of negative
values. For each tensor the clip is the upper edge of the bin where the
cumulative count reaches `--percentile` of the values (1.0: the largest
value seen); a tensor with no negative value gets 255 steps of clip/255
(0…255), any other 255 steps of clip/127 (−127…127). Writes the table
`KEY IN_SCALE s|u OUT_SCALE s|u` the patch reads with `FP_QSIM=apply:TABLE`,
and prints each tensor's clip and largest value.

    python3 table.py HISTOGRAMS TABLE [--percentile P] [--keep-heads]

`--keep-heads` also rounds the outputs of the heads' 64 → 16 layers
(left out by default: their outputs are the logits' inputs).
"""
import argparse
import struct


def upper_edge(index):
    return struct.unpack("<f", struct.pack("<I", (index + 1) << 19))[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("histograms")
    parser.add_argument("table")
    parser.add_argument("--percentile", type=float, default=1.0)
    parser.add_argument("--keep-heads", action="store_true")
    args = parser.parse_args()

    histograms = {}
    with open(args.histograms) as source:
        for line in source:
            key, counts = line.split(" ", 1)
            histograms[key] = {int(b): int(c) for b, c in (pair.split(":") for pair in counts.strip().split(","))}

    rows = []
    for layer in sorted({key.rsplit("-", 1)[0] for key in histograms}):
        _, inputs, outputs, _ = layer.split("-")
        if (inputs, outputs) == ("64", "16") and not args.keep_heads:
            continue
        grids = []
        for side in ("in", "out"):
            counts = histograms[f"{layer}-{side}"]
            negatives = counts.pop(4096, 0)
            total = sum(counts.values())
            seen, clip = 0, upper_edge(max(counts))
            for index in sorted(counts):
                seen += counts[index]
                if seen >= total * args.percentile:
                    clip = upper_edge(index)
                    break
            signed = negatives > 0
            grids.append((clip / (127 if signed else 255), "s" if signed else "u"))
            print(f"{layer:24s} {side:3s} {'s' if signed else 'u'} clip {clip:8.4f} largest {upper_edge(max(counts)):8.4f}")
        rows.append(f"{layer} {grids[0][0]:.9g} {grids[0][1]} {grids[1][0]:.9g} {grids[1][1]}")
    with open(args.table, "w") as table:
        table.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
