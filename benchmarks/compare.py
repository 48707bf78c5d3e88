#!/usr/bin/env python3
"""Runs the ein4j-bench workloads with numpy and PyTorch (CPU) and with the ein4j command line on
one or more JDKs, in one session, and prints a side-by-side markdown table.

    python3 benchmarks/compare.py [--threads N] [--jdk PATH ...] [--repeat R] [--warmup S] [--java-opt OPT ...]
                                  [--one-jvm] [--no-malloc-tuning] [--omp-spin] [--jar PATH] [--json FILE] [WORKLOAD ...]

numpy and PyTorch run in subprocesses of this script, so that their thread settings apply before
the libraries load: OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are set to N, and
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed (set in this environment, they halve OpenBLAS),
and glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ are set to the values a long-running
process ends with (32 / 64 MiB), else a fresh process page-faults on every large temporary
(--no-malloc-tuning leaves them unset), and OMP_WAIT_POLICY is set to PASSIVE: PyTorch's OpenMP threads
otherwise spin at every barrier, and on this shared, oversubscribed VM the spinning threads take the
cores the working ones need (gpt2-decode: 0.8 tokens/s spinning, 7.5 passive; --omp-spin leaves it unset).
PyTorch also gets torch.set_num_threads(N). The Java command line gets --threads N.

The workloads run one at a time, each in turn with numpy, PyTorch and every JDK, each in a fresh
process (for the JVMs as JMH forks), so that all columns of a row see about the same load on a
shared machine. --one-jvm runs all workloads in one process per library instead (numpy, PyTorch,
then each JDK), as ein4j-bench does when given several workloads.

Every figure is from the median of repeated timed runs after a warm-up, with the same policy as
ein4j-bench: warm up for at least --warmup seconds (3) and five runs, and until the median of the last
three runs is within 1.5x of the fastest and the fastest has not improved by 10% for max(1 s, a third
of the warm-up) (at most max(12 s, 4 x warm-up)); then R timed runs (default: about 2 s worth, by the
median of the last three warm-up runs, between 3 and 100).

Before the workloads, each JDK runs one short multiply, so that the GEMM autotune a JVM does on its
first multiply on a machine (then cached per CPU model and JDK) is not inside a timed workload.

The ratio columns say how ein4j compares with the better of numpy and PyTorch; a ratio > 1 always
means ein4j is better: for throughputs (GFLOP/s, GB/s) it is ein4j / best, for times (ms/step, ms/batch,
us/call) it is best / ein4j.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_JAR = os.path.join(HERE, "target", "ein4j-bench.jar")
JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"

WORKLOADS = [
    "matmul-256", "matmul-512", "matmul-1024", "matmul-2048",
    "attention-scores", "attention-values",
    "transpose", "rearrange-overhead", "softmax",
    "mlp-step", "mlp-step-adam",
    "conv2d-fwd-c64", "conv2d-fwd-bwd-c64", "conv2d-fwd-c3", "conv2d-fwd-bwd-c3",
    "cnn-step",
    "resnet18-fwd", "vit-tiny-fwd",
    "gpt2-decode",
]
NUMPY_WORKLOADS = {"matmul-256", "matmul-512", "matmul-1024", "matmul-2048",
                   "transpose", "rearrange-overhead", "softmax"}

UNITS = {
    "matmul-256": "GFLOP/s", "matmul-512": "GFLOP/s", "matmul-1024": "GFLOP/s", "matmul-2048": "GFLOP/s",
    "attention-scores": "GFLOP/s", "attention-values": "GFLOP/s",
    "transpose": "GB/s", "rearrange-overhead": "us/call", "softmax": "GB/s",
    "mlp-step": "ms/step", "mlp-step-adam": "ms/step",
    "conv2d-fwd-c64": "GFLOP/s", "conv2d-fwd-bwd-c64": "GFLOP/s",
    "conv2d-fwd-c3": "GFLOP/s", "conv2d-fwd-bwd-c3": "GFLOP/s",
    "cnn-step": "ms/step",
    "resnet18-fwd": "ms/batch", "vit-tiny-fwd": "ms/batch",
    "gpt2-decode": "tokens/s",
}
TIME_UNITS = {"ms/step", "ms/batch", "us/call"}
REARRANGE_CALLS = 100_000
CONV_CASES = {"c64": (32, 64, 32, 64, 3, 1), "c3": (64, 3, 32, 32, 5, 0)}  # N, C, size, O, k, pad
# Hugging Face image classifiers, saved once with random weights by transformers into MODELS_DIR (a
# folder per model with pixel_values.npy): PyTorch loads them with from_pretrained, ein4j-bench with
# AutoModel (the environment variable EIN4J_BENCH_MODELS), so both run the same weights on the same pixels.
MODEL_FOLDERS = {"resnet18-fwd": "resnet18", "vit-tiny-fwd": "vit-tiny", "gpt2-decode": "gpt2"}
MODELS_DIR = os.path.join(HERE, "target", "hf-models")
MODEL_BATCH, MODEL_IMAGE = 4, 224
# gpt2-decode: GPT-2 small's shape with random weights, batch 1, a 32-token prompt, 32 greedy new tokens with the
# key/value cache and no stop token; the figure is new tokens per second of the whole generate call
DECODE_PROMPT, DECODE_NEW_TOKENS = 32, 32


def conv_flops(case, backward):
    n, c, size, o, k, pad = CONV_CASES[case]
    out = size + 2 * pad - k + 1
    forward = 2.0 * n * o * c * k * k * out * out
    return 3 * forward if backward else forward


def work(name):
    """Operations, bytes or calls per run, as ein4j-bench counts them."""
    if name.startswith("matmul-"):
        n = int(name.split("-")[1])
        return 2.0 * n ** 3
    if name.startswith("attention-"):
        return 2.0 * 8 * 8 * 256 * 256 * 64
    if name == "transpose":
        return 2 * 4 * 64.0 * 64 * 128 * 128
    if name == "softmax":
        return 2 * 4 * 8192.0 * 4096
    if name == "rearrange-overhead":
        return REARRANGE_CALLS
    if name.startswith("conv2d-fwd-bwd-"):
        return conv_flops(name.rsplit("-", 1)[1], True)
    if name.startswith("conv2d-fwd-"):
        return conv_flops(name.rsplit("-", 1)[1], False)
    if name == "gpt2-decode":
        return DECODE_NEW_TOKENS
    return 1.0


def figure(name, median_ms):
    unit = UNITS[name]
    if unit in ("GFLOP/s", "GB/s"):
        return work(name) / (median_ms * 1e6)
    if unit == "tokens/s":
        return work(name) / (median_ms / 1e3)
    if unit == "us/call":
        return median_ms * 1e3 / work(name)
    return median_ms


def prepare_model_folders(names):
    """Writes the model folders the named workloads need (ResNet-18 and ViT-Tiny shapes), once."""
    needed = [MODEL_FOLDERS[n] for n in names if n in MODEL_FOLDERS]
    for folder in needed:
        path = os.path.join(MODELS_DIR, folder)
        if os.path.exists(os.path.join(path, "pixel_values.npy")) or os.path.exists(os.path.join(path, "input_ids.npy")):
            continue
        import numpy as np
        import torch
        from transformers import (ResNetConfig, ResNetForImageClassification, ViTConfig,
                                  ViTForImageClassification)
        torch.manual_seed(0)
        if folder == "gpt2":
            from transformers import GPT2Config, GPT2LMHeadModel
            model = GPT2LMHeadModel(GPT2Config(vocab_size=50257, n_positions=1024, n_embd=768, n_layer=12, n_head=12))
            model.eval().save_pretrained(path, safe_serialization=True)
            ids = np.random.default_rng(0).integers(0, 50257, size=(1, DECODE_PROMPT)).astype(np.int64)
            np.save(os.path.join(path, "input_ids.npy"), ids)
            print(f"# wrote {path}", file=sys.stderr, flush=True)
            continue
        if folder == "resnet18":
            model = ResNetForImageClassification(ResNetConfig(
                embedding_size=64, hidden_sizes=[64, 128, 256, 512], depths=[2, 2, 2, 2], layer_type="basic",
                num_labels=1000))
        else:
            model = ViTForImageClassification(ViTConfig(
                hidden_size=192, num_hidden_layers=12, num_attention_heads=3, intermediate_size=768, image_size=224,
                patch_size=16, num_labels=1000))
        model.eval().save_pretrained(path, safe_serialization=True)
        pixels = np.random.default_rng(0).standard_normal((MODEL_BATCH, 3, MODEL_IMAGE, MODEL_IMAGE), dtype=np.float32)
        np.save(os.path.join(path, "pixel_values.npy"), pixels)
        print(f"# wrote {path}", file=sys.stderr, flush=True)
    return MODELS_DIR


# ---------------------------------------------------------------------------------- timing

def measure(run, repeat, warmup=3.0):
    start = time.perf_counter()
    recent = []
    improved_at = start  # when the fastest run last improved by 10 % or more
    while True:
        t0 = time.perf_counter()
        run()
        t1 = time.perf_counter()
        if not recent or t1 - t0 < 0.9 * min(recent):
            improved_at = t1
        recent.append(t1 - t0)
        estimate = statistics.median(recent[-3:])
        elapsed = t1 - start
        quiet = t1 - improved_at >= max(1.0, elapsed / 3)
        settled = len(recent) >= 5 and elapsed >= warmup and estimate <= 1.5 * min(recent) and quiet
        if settled or elapsed >= max(12.0, 4 * warmup) or len(recent) >= 100_000:
            break
    runs = repeat if repeat else max(3, min(100, round(2.0 / max(estimate, 1e-9))))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        run()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times), max(times), runs


# ---------------------------------------------------------------------------------- numpy

def numpy_workload(name):
    import numpy as np
    rng = np.random.default_rng(1)

    def randn(*shape):
        return rng.standard_normal(shape, dtype=np.float32)

    if name.startswith("matmul-"):
        n = int(name.split("-")[1])
        a, b = randn(n, n), randn(n, n)
        return lambda: a @ b
    if name == "transpose":
        x = randn(64, 64, 128, 128)
        return lambda: np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    if name == "softmax":
        x = randn(8192, 4096)

        def softmax():
            e = np.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return softmax
    if name == "rearrange-overhead":
        x = randn(2, 3, 4, 4)
        view = rearrange_function(lambda t: t.transpose(0, 2, 3, 1))

        def overhead():
            for _ in range(REARRANGE_CALLS):
                view(x)
        return overhead
    return None


def rearrange_function(fallback):
    """einops.rearrange with a cached pattern when einops is installed, else the plain view."""
    try:
        import einops
    except ImportError:
        return fallback
    return lambda t: einops.rearrange(t, "b c h w -> b h w c")


# ---------------------------------------------------------------------------------- PyTorch

def torch_workload(name):
    import torch
    import torch.nn.functional as F
    gen = torch.Generator().manual_seed(1)

    def randn(*shape):
        return torch.randn(*shape, generator=gen, dtype=torch.float32)

    if name.startswith("matmul-"):
        n = int(name.split("-")[1])
        a, b = randn(n, n), randn(n, n)
        return lambda: torch.einsum("ij,jk->ik", a, b)
    if name == "attention-scores":
        q, k = randn(8, 8, 256, 64), randn(8, 8, 256, 64)
        return lambda: torch.einsum("bhid,bhjd->bhij", q, k)
    if name == "attention-values":
        p, v = randn(8, 8, 256, 256), randn(8, 8, 256, 64)
        return lambda: torch.einsum("bhij,bhjd->bhid", p, v)
    if name == "transpose":
        x = randn(64, 64, 128, 128)
        return lambda: x.permute(0, 2, 3, 1).contiguous()
    if name == "softmax":
        x = randn(8192, 4096)
        return lambda: torch.softmax(x, 1)
    if name == "rearrange-overhead":
        x = randn(2, 3, 4, 4)
        view = rearrange_function(lambda t: t.permute(0, 2, 3, 1))

        def overhead():
            for _ in range(REARRANGE_CALLS):
                view(x)
        return overhead
    if name.startswith("conv2d-"):
        backward = name.startswith("conv2d-fwd-bwd-")
        n, c, size, o, k, pad = CONV_CASES[name.rsplit("-", 1)[1]]
        x = randn(n, c, size, size)
        w = randn(o, c, k, k) / (c * k * k) ** 0.5
        if not backward:
            def forward():
                with torch.no_grad():
                    return F.conv2d(x, w, padding=pad)
            return forward
        x.requires_grad_(True)
        w.requires_grad_(True)

        def forward_backward():
            y = F.conv2d(x, w, padding=pad)
            return torch.autograd.grad(y.sum(), [x, w])
        return forward_backward
    if name in ("mlp-step", "mlp-step-adam"):
        x = randn(128, 784)
        labels = torch.randint(0, 10, (128,), generator=gen)
        params = [randn(256, 784) / 784 ** 0.5, randn(256) * 0.01, randn(10, 256) / 256 ** 0.5, randn(10) * 0.01]

        def loss_of(p):
            h = F.relu(F.linear(x, p[0], p[1]))
            return F.cross_entropy(F.linear(h, p[2], p[3]), labels)
        return adam_step(loss_of, params) if name == "mlp-step-adam" else sgd_step(loss_of, params)
    if name == "cnn-step":
        x = randn(64, 1, 28, 28)
        labels = torch.randint(0, 10, (64,), generator=gen)
        params = [randn(32, 1, 3, 3) / 3.0, randn(32) * 0.01, randn(64, 32, 3, 3) / (32 * 9) ** 0.5, randn(64) * 0.01,
                  randn(128, 9216) / 9216 ** 0.5, randn(128) * 0.01, randn(10, 128) / 128 ** 0.5, randn(10) * 0.01]

        def loss_of(p):
            h = F.relu(F.conv2d(x, p[0], p[1]))
            h = F.relu(F.conv2d(h, p[2], p[3]))
            h = F.max_pool2d(h, 2).flatten(1)
            h = F.relu(F.linear(h, p[4], p[5]))
            return F.cross_entropy(F.linear(h, p[6], p[7]), labels)
        return sgd_step(loss_of, params)
    if name == "gpt2-decode":
        return torch_decode()
    if name in MODEL_FOLDERS:
        import numpy as np
        from transformers import AutoModelForImageClassification
        path = os.path.join(os.environ.get("EIN4J_BENCH_MODELS", MODELS_DIR), MODEL_FOLDERS[name])
        model = AutoModelForImageClassification.from_pretrained(path).eval()
        pixels = torch.from_numpy(np.load(os.path.join(path, "pixel_values.npy")))

        def forward():
            with torch.no_grad():
                return model(pixel_values=pixels).logits
        return forward
    return None


def torch_decode():
    """transformers' generate, greedy with its key/value cache, on the folder ein4j-bench loads; no stop token."""
    import numpy as np
    import torch
    from transformers import GPT2LMHeadModel
    path = os.path.join(os.environ.get("EIN4J_BENCH_MODELS", MODELS_DIR), MODEL_FOLDERS["gpt2-decode"])
    model = GPT2LMHeadModel.from_pretrained(path, dtype=torch.float32).eval()
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = None
    ids = torch.from_numpy(np.load(os.path.join(path, "input_ids.npy")))
    mask = torch.ones_like(ids)

    def generate():
        with torch.no_grad():
            out = model.generate(ids, attention_mask=mask, max_new_tokens=DECODE_NEW_TOKENS, do_sample=False)
        if out.shape[1] != DECODE_PROMPT + DECODE_NEW_TOKENS:
            raise RuntimeError(f"generated {out.shape[1]} positions")
        return out
    return generate


def weight_bytes_gpt2():
    """float32 bytes of GPT-2 small's weights (the head is tied to wte), each read once per decode step."""
    layers, width, vocab, positions = 12, 768, 50257, 1024
    per_layer = (width * 3 * width + 3 * width) + (width * width + width) + 2 * (width * 4 * width) + 4 * width + width \
        + 4 * width
    return 4 * (vocab * width + positions * width + layers * per_layer + 2 * width)


def memory_bandwidth(threads):
    """Copy bandwidth with numpy (read + write bytes of a 512 MiB copy, median of 10), in a subprocess with N threads."""
    code = ("import numpy as np, time, statistics\n"
            "a = np.ones(128 << 20, dtype=np.float32); b = np.empty_like(a)\n"
            "for _ in range(3): np.copyto(b, a)\n"
            "t = []\n"
            "for _ in range(10):\n"
            "    s = time.perf_counter(); np.copyto(b, a); t.append(time.perf_counter() - s)\n"
            "print(2 * a.nbytes / statistics.median(t) / 1e9, 2 * a.nbytes / min(t) / 1e9)\n")
    done = subprocess.run([sys.executable, "-c", code], env=python_env(threads), stdout=subprocess.PIPE, text=True,
                          check=False)
    try:
        median, best = (float(x) for x in done.stdout.split())
        return median, best
    except ValueError:
        return None, None


def sgd_step(loss_of, params):
    import torch
    for p in params:
        p.requires_grad_(True)

    def step():
        loss = loss_of(params)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.01 * p.grad
                p.grad = None
        return loss.item()
    return step


def adam_step(loss_of, params):
    """torch.optim.Adam with lr 1e-3 and its defaults, as ein4j's Adam(parameters, 1e-3)."""
    import torch
    for p in params:
        p.requires_grad_(True)
    optimizer = torch.optim.Adam(params, lr=1e-3)

    def step():
        loss = loss_of(params)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.item()
    return step


def worker(library, names, threads, repeat, warmup):
    """Runs in a subprocess: one JSON object per workload on stdout."""
    if library == "torch":
        import torch
        torch.set_num_threads(threads)
        make = torch_workload
        info = {"library": "torch", "version": torch.__version__, "threads": torch.get_num_threads()}
    else:
        import numpy
        make = numpy_workload
        info = {"library": "numpy", "version": numpy.__version__}
    try:
        import einops
        info["einops"] = einops.__version__
    except ImportError:
        pass
    print(json.dumps({"info": info}), flush=True)
    for name in names:
        run = None
        try:
            run = make(name)
            if run is None:
                continue
            median, low, high, runs = measure(run, repeat, warmup)
            print(json.dumps({"name": name, "median_ms": median, "min_ms": low, "max_ms": high, "runs": runs,
                              "figure": figure(name, median), "unit": UNITS[name]}), flush=True)
        except Exception as failure:  # report and go on, as ein4j-bench does
            print(json.dumps({"name": name, "error": f"{type(failure).__name__}: {failure}"}), flush=True)
        del run
        import gc
        gc.collect()


# ---------------------------------------------------------------------------------- the driver

# glibc malloc returns freed blocks of more than 128 KiB to the system until a large block has been
# freed once (its "dynamic mmap threshold"), so a fresh process page-faults on every large temporary:
# PyTorch's c3 convolution took 12 ms per call in a fresh process and 0.65 ms once any 8 MB tensor
# had been freed (975,000 minor faults in 300 calls). These are the values a warmed-up process ends
# with (the dynamic threshold's maximum, 32 MiB, and twice that for trimming).
MALLOC_TUNING = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(64 << 20)}


def python_env(threads, malloc_tuning=True, omp_passive=True):
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[variable] = str(threads)
    if malloc_tuning:
        for variable, value in MALLOC_TUNING.items():
            env.setdefault(variable, value)
    if omp_passive:
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def run_python(library, names, threads, repeat, warmup, malloc_tuning=True, omp_passive=True):
    command = [sys.executable, os.path.abspath(__file__), "--worker", library, "--threads", str(threads),
               "--warmup", str(warmup)]
    if repeat:
        command += ["--repeat", str(repeat)]
    command += names
    print(f"# running {library} ...", file=sys.stderr, flush=True)
    done = subprocess.run(command, env=python_env(threads, malloc_tuning, omp_passive), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, check=False)
    results, info = {}, {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if "info" in record:
            info = record["info"]
        else:
            results[record["name"]] = record
    if done.returncode != 0:
        info["failed"] = f"exit {done.returncode}: {done.stderr.strip()[-500:]}"
        print(f"# {library} failed: {info['failed']}", file=sys.stderr)
    return results, info


def java_version(java):
    done = subprocess.run([java, "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False)
    match = re.search(r'version "([^"]+)"', done.stdout)
    full = match.group(1) if match else "?"
    major = full.split(".")[0] if not full.startswith("1.") else full.split(".")[1]
    return major, full


def run_java_once(java, jar, names, threads, repeat, warmup, java_opts):
    command = [java, *java_opts, "--add-modules", "jdk.incubator.vector", "-jar", jar, "--threads", str(threads),
               "--warmup", str(warmup)]
    if repeat:
        command += ["--repeat", str(repeat)]
    command += names
    print(f"# running {' '.join(command)} ...", file=sys.stderr, flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    results = {}
    for line in done.stdout.splitlines():
        parts = line.split(" ", 3)
        if parts[0] not in WORKLOADS:
            continue
        if len(parts) >= 3 and parts[1] == "error":
            results[parts[0]] = {"name": parts[0], "error": line.split(" error ", 1)[1]}
        elif len(parts) == 4:
            try:
                results[parts[0]] = {"name": parts[0], "median_ms": float(parts[1]), "figure": float(parts[2]),
                                     "unit": parts[3]}
            except ValueError:
                results[parts[0]] = {"name": parts[0], "error": f"unreadable line: {line}"}
    for line in done.stderr.splitlines():
        match = re.match(r"# (\S+): (\d+) warm-up runs, (\d+) timed runs, min (\S+) ms, median \S+ ms, max (\S+) ms",
                         line)
        if match and match.group(1) in results:
            results[match.group(1)].update(runs=int(match.group(3)), min_ms=float(match.group(4)),
                                           max_ms=float(match.group(5)))
    header = next((line for line in done.stderr.splitlines() if line.startswith("# ein4j-bench:")), "")
    if done.returncode not in (0, 1):
        print(f"# {java} exited {done.returncode}: {done.stderr.strip()[-1000:]}", file=sys.stderr)
        for name in names:
            results.setdefault(name, {"name": name, "error": f"the JVM exited with status {done.returncode}"})
    return results, header


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True, check=False).stdout
        match = re.search(r"Model name:\s*(.+)", out)
        if match:
            return match.group(1).strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fmt(value):
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


DISTURBED = 2.0


def cell(result, key="figure"):
    if result is None:
        return "–"
    if "error" in result:
        return "error"
    text = fmt(result[key])
    if "min_ms" in result and result["median_ms"] > DISTURBED * result["min_ms"]:
        text += " †"
    return text


def ratio(name, ein4j, others):
    if ein4j is None or "error" in ein4j:
        return "–"
    figures = [r["figure"] for r in others if r is not None and "error" not in r]
    if not figures:
        return "–"
    if UNITS[name] in TIME_UNITS:
        return f"{min(figures) / ein4j['figure']:.2f}"
    return f"{ein4j['figure'] / max(figures):.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--jdk", action="append", metavar="PATH",
                        help="a java executable to run ein4j-bench with (repeatable); default: java on PATH and "
                             + JDK25 + " if present")
    parser.add_argument("--repeat", type=int, default=0, help="timed runs per workload (default: about 2 s worth)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="least warm-up seconds per workload, for every library (default: %(default)s)")
    parser.add_argument("--jar", default=DEFAULT_JAR, help="the ein4j-bench jar (default: %(default)s)")
    parser.add_argument("--java-opt", action="append", default=[], metavar="OPT",
                        help="a JVM option for the ein4j runs, e.g. --java-opt=-Xmx8g (repeatable)")
    parser.add_argument("--no-malloc-tuning", action="store_true",
                        help="do not set MALLOC_MMAP_THRESHOLD_/MALLOC_TRIM_THRESHOLD_ for numpy and PyTorch")
    parser.add_argument("--omp-spin", action="store_true",
                        help="do not set OMP_WAIT_POLICY=PASSIVE for numpy and PyTorch (OpenMP threads then spin at barriers)")
    parser.add_argument("--one-jvm", action="store_true",
                        help="run all workloads in one process per library and JDK (default: a fresh process per workload, "
                             "the libraries interleaved)")
    parser.add_argument("--json", metavar="FILE", help="also write the raw results here")
    parser.add_argument("--worker", choices=["numpy", "torch"], help=argparse.SUPPRESS)
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD")
    args = parser.parse_args()

    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {unknown}; known: {' '.join(WORKLOADS)}")
    names = args.workloads or WORKLOADS
    if args.worker:
        worker(args.worker, names, args.threads, args.repeat, args.warmup)
        return 0

    jdks = args.jdk
    if not jdks:
        jdks = [shutil.which("java") or "java"]
        if os.path.exists(JDK25):
            jdks.append(JDK25)
    if not os.path.exists(args.jar):
        parser.error(f"{args.jar} not found: build it with mvn -B -f benchmarks/pom.xml package")

    if any(n in MODEL_FOLDERS for n in names):
        os.environ.setdefault("EIN4J_BENCH_MODELS", prepare_model_folders(names))
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    java_runs = []
    for java in jdks:
        major, full = java_version(java)
        label = f"ein4j (JDK {major})"
        if any(run["label"] == label for run in java_runs):
            label = f"ein4j (JDK {full})"
        java_runs.append({"java": java, "label": label, "version": full, "results": {}, "header": ""})
    for run in java_runs:
        # The first multiply of a JVM on a new machine (or JDK) tunes the GEMM and caches the result
        # (~1 s); done here, no timed workload pays it (matmul-256 once ran at half its speed so).
        run_java_once(run["java"], args.jar, ["matmul-256"], args.threads, 3, 0, args.java_opt)
    numpy_results, numpy_info, torch_results, torch_info = {}, {}, {}, {}
    loads = []
    # Workload by workload, every library in turn, so that all of them see about the same load on
    # this shared machine (a slow minute otherwise lands on one column).
    for name in ([None] if args.one_jvm else names):
        group = names if name is None else [name]
        numpy_group = [n for n in group if n in NUMPY_WORKLOADS]
        if numpy_group:
            part, numpy_info = run_python("numpy", numpy_group, args.threads, args.repeat, args.warmup,
                                          not args.no_malloc_tuning, not args.omp_spin)
            numpy_results.update(part)
        part, torch_info = run_python("torch", group, args.threads, args.repeat, args.warmup,
                                      not args.no_malloc_tuning, not args.omp_spin)
        torch_results.update(part)
        for run in java_runs:
            part, header = run_java_once(run["java"], args.jar, group, args.threads, args.repeat, args.warmup,
                                         args.java_opt)
            run["results"].update(part)
            run["header"] = header or run["header"]
        loads.append(os.getloadavg()[0])
    load_after = os.getloadavg()

    lines = []
    lines.append(f"{started:%Y-%m-%d %H:%M} UTC, {cpu_model()}, {os.cpu_count()} CPUs, {args.threads} threads "
                 f"everywhere; 1-minute load average {load_before[0]:.1f} at the start, "
                 f"{min(loads, default=load_after[0]):.1f}–{max(loads, default=load_after[0]):.1f} after each workload")
    for run in java_runs:
        lines.append(f"- {run['label']}: {run['java']} ({run['version']})"
                     + (f" with {' '.join(args.java_opt)}" if args.java_opt else "")
                     + (", all workloads in one JVM" if args.one_jvm else ", a fresh JVM per workload"))
    lines.append(f"- numpy {numpy_info.get('version', '(not run)')}, PyTorch {torch_info.get('version', '?')} "
                 f"(torch.get_num_threads() = {torch_info.get('threads', '?')}), Python {platform.python_version()}"
                 + (f", einops {torch_info['einops']}" if "einops" in torch_info else "")
                 + ("" if args.no_malloc_tuning else ", " + " ".join(f"{k}={v}" for k, v in MALLOC_TUNING.items()))
                 + ("" if args.omp_spin else ", OMP_WAIT_POLICY=" + os.environ.get("OMP_WAIT_POLICY", "PASSIVE")))
    lines.append("")
    columns = ["workload", "unit"] + [run["label"] for run in java_runs] + ["numpy", "PyTorch"] \
        + [f"{run['label'].replace('ein4j ', '')} vs best" for run in java_runs]
    lines.append("| " + " | ".join(columns) + " |")
    lines.append("|" + "|".join(["---", "---"] + ["---:"] * (len(columns) - 2)) + "|")
    for name in names:
        row = [f"`{name}`", UNITS[name]]
        row += [cell(run["results"].get(name)) for run in java_runs]
        row += [cell(numpy_results.get(name)), cell(torch_results.get(name))]
        others = [numpy_results.get(name), torch_results.get(name)]
        row += [ratio(name, run["results"].get(name), others) for run in java_runs]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append("Ratios: > 1 means ein4j is better than the better of numpy and PyTorch "
                 "(throughput: ein4j / best; ms/step, ms/batch and us/call: best / ein4j). "
                 f"†: the median run took more than {DISTURBED:g}× the fastest one (disturbed by the load).")
    lines.append("")
    lines.append("Median time of one run, ms (min–max over the timed runs):")
    lines.append("")
    columns = ["workload"] + [run["label"] for run in java_runs] + ["numpy", "PyTorch"]
    lines.append("| " + " | ".join(columns) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(columns) - 1)) + "|")

    def spread(result):
        if result is None:
            return "–"
        if "error" in result:
            return "error"
        text = fmt(result["median_ms"])
        if "min_ms" in result:
            text += f" ({fmt(result['min_ms'])}–{fmt(result['max_ms'])}, {result.get('runs', '?')} runs)"
        return text

    for name in names:
        row = [f"`{name}`"] + [spread(run["results"].get(name)) for run in java_runs]
        row += [spread(numpy_results.get(name)), spread(torch_results.get(name))]
        lines.append("| " + " | ".join(row) + " |")
    if "gpt2-decode" in names:
        median_bw, best_bw = memory_bandwidth(args.threads)
        weights = weight_bytes_gpt2()
        lines.append("")
        lines.append(f"gpt2-decode reads every weight once per new token ({weights / 1e6:.1f} MB of float32): tokens/s x weight "
                     f"bytes against this machine's copy bandwidth (numpy, 512 MiB, read + write: median "
                     f"{fmt(median_bw)} GB/s, best {fmt(best_bw)} GB/s, measured after the workloads):")
        lines.append("")
        lines.append("| library | tokens/s | weight bytes read, GB/s | of the median copy bandwidth |")
        lines.append("|---|---:|---:|---:|")
        decode_rows = [(run["label"], run["results"].get("gpt2-decode")) for run in java_runs]
        decode_rows.append(("PyTorch + transformers", torch_results.get("gpt2-decode")))
        for label, result in decode_rows:
            if result is None or "error" in result:
                lines.append(f"| {label} | {cell(result)} | – | – |")
                continue
            rate = result["figure"] * weights / 1e9
            share = f"{100 * rate / median_bw:.0f} %" if median_bw else "–"
            lines.append(f"| {label} | {fmt(result['figure'])} | {fmt(rate)} | {share} |")
    errors = [(run["label"], name, r["error"]) for run in java_runs for name, r in run["results"].items()
              if "error" in r]
    errors += [(lib, name, r["error"]) for lib, res in (("numpy", numpy_results), ("PyTorch", torch_results))
               for name, r in res.items() if "error" in r]
    if errors:
        lines.append("")
        lines.append("Errors:")
        for label, name, message in errors:
            lines.append(f"- {label} `{name}`: {message}")
    print("\n".join(lines))

    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"started": started.isoformat(), "threads": args.threads, "cpu": cpu_model(),
                       "load": [load_before, load_after], "numpy": {"info": numpy_info, "results": numpy_results},
                       "torch": {"info": torch_info, "results": torch_results}, "java": java_runs}, out, indent=1)
    failed = any("error" in r for run in java_runs for r in run["results"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
