"""Times the flagship's training epochs beside its PyTorch twin, in one session, and prints a table.

    python3 benchmarks/compare_epoch.py [--epochs N] [--rounds R] [--threads N] [--data DIR]
                                        [--jdk PATH ...] [--jar PATH] [--java-opt OPT ...] [--json FILE]

Each round runs the ein4j flagship (examples/target/ein4j-examples.jar fashion-mnist, once per JDK)
and then examples/python/fashion_mnist_torch.py, both for N epochs on the same IDX files (default:
Debian's dataset-fashion-mnist), with the same thread count: ein4j through -Dein4j.cpu.threads,
PyTorch through torch.set_num_threads and the OpenMP/BLAS variables compare.py sets (including
OMP_WAIT_POLICY=PASSIVE; see compare.py). Rounds alternate the runs so that a change in the machine's
load falls on both. Both programs print one line per epoch, "epoch E: loss L, test accuracy A%, S s
(I images/s)", where S is the training time of that epoch (the test pass is not in it); the table
gives each epoch's median over the rounds and the ratio ein4j / PyTorch (the issue's target for the
full data is at most 1.5). Epoch 1 includes the JIT's warm-up on the JVM side and is reported apart.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compare import cpu_model, java_version, python_env  # noqa: E402

EPOCH_LINE = re.compile(r"epoch (\d+): loss (\S+), test accuracy (\S+)%, (\S+) s")


def parse(stdout):
    epochs = {}
    for line in stdout.splitlines():
        match = EPOCH_LINE.match(line.strip())
        if match:
            epochs[int(match.group(1))] = {"loss": float(match.group(2)), "accuracy": float(match.group(3)),
                                           "seconds": float(match.group(4))}
    return epochs


def run(label, command, env=None):
    print(f"# {label}: {' '.join(command)}", file=sys.stderr, flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, check=False)
    epochs = parse(done.stdout)
    if done.returncode != 0 or not epochs:
        print(f"# {label} failed (exit {done.returncode}): {done.stderr.strip()[-800:]}", file=sys.stderr)
    return epochs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--jdk", action="append", help="a java executable (repeatable; default: java on the PATH)")
    parser.add_argument("--jar", default=os.path.join(ROOT, "examples", "target", "ein4j-examples.jar"))
    parser.add_argument("--java-opt", action="append", default=[], help="an option for every JVM (repeatable)")
    parser.add_argument("--json", help="also write the runs to this file")
    args = parser.parse_args()
    if not os.path.exists(args.jar):
        sys.exit(f"{args.jar} is missing: build it first (mvn -B -q install -DskipTests)")
    javas = args.jdk or ["java"]
    torch_script = os.path.join(ROOT, "examples", "python", "fashion_mnist_torch.py")
    labels = [f"ein4j (JDK {java_version(java)[0]})" for java in javas] + ["PyTorch"]
    runs = {label: [] for label in labels}
    for round_index in range(args.rounds):
        for java, label in zip(javas, labels):
            command = [java, *args.java_opt, f"-Dein4j.cpu.threads={args.threads}", "--add-modules",
                       "jdk.incubator.vector", "-jar", args.jar, "fashion-mnist", "--epochs", str(args.epochs),
                       "--data", args.data]
            runs[label].append(run(f"round {round_index + 1}, {label}", command))
        command = [sys.executable, torch_script, "--epochs", str(args.epochs), "--data", args.data, "--threads",
                   str(args.threads)]
        runs["PyTorch"].append(run(f"round {round_index + 1}, PyTorch", command, env=python_env(args.threads)))
    print(f"Flagship epochs on {cpu_model()}, {args.threads} threads, {args.rounds} round(s), data {args.data}; "
          "seconds of training per epoch (median over rounds), test accuracy after it, ratio to PyTorch's time\n")
    print("| epoch | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    for epoch in range(1, args.epochs + 1):
        torch_seconds = median(runs["PyTorch"], epoch, "seconds")
        cells = []
        for label in labels:
            seconds = median(runs[label], epoch, "seconds")
            accuracy = median(runs[label], epoch, "accuracy")
            if seconds is None:
                cells.append("–")
                continue
            ratio = "" if label == "PyTorch" or torch_seconds is None else f", {seconds / torch_seconds:.2f}×"
            cells.append(f"{seconds:.1f} s ({accuracy:.2f} %{ratio})")
        print(f"| {epoch}{' (JIT warm-up)' if epoch == 1 else ''} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"cpu": cpu_model(), "threads": args.threads, "runs": runs}, out, indent=1)


def median(label_runs, epoch, key):
    values = [run[epoch][key] for run in label_runs if epoch in run]
    return statistics.median(values) if values else None


if __name__ == "__main__":
    main()
