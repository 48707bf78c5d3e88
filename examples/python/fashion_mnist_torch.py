"""The flagship's model in PyTorch, for the README's side-by-side time per epoch.

    pip install torch==2.13.0
    python3 examples/python/fashion_mnist_torch.py [--epochs 5] [--data /usr/share/datasets/fashion-mnist] [--threads 2]

Same architecture (conv 3x3 1->32 without bias, batch norm, relu, 2x2 max pool; conv 32->64, batch
norm, relu, pool; dense 3136->128, relu, dropout 0.25; dense 128->10), same standardization, Adam
with learning rate 2e-3, batches of 128 (the last partial batch dropped), one thread per core.
"""
import argparse
import gzip
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def read_idx(path):
    opener = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    with opener(path, 'rb') as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def load(directory):
    def find(name):
        for candidate in (name + '.gz', name):
            path = os.path.join(directory, candidate)
            if os.path.exists(path):
                return path
        raise FileNotFoundError(name)
    images = lambda name: torch.from_numpy(((read_idx(find(name)) / 255.0 - 0.2860) / 0.3530).astype(np.float32)).unsqueeze(1)
    labels = lambda name: torch.from_numpy(read_idx(find(name)).astype(np.int64))
    return (images('train-images-idx3-ubyte'), labels('train-labels-idx1-ubyte'),
            images('t10k-images-idx3-ubyte'), labels('t10k-labels-idx1-ubyte'))


def model():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--data', default='/usr/share/datasets/fashion-mnist')
    parser.add_argument('--threads', type=int, default=os.cpu_count())
    parser.add_argument('--batch', type=int, default=128)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(7)
    train_x, train_y, test_x, test_y = load(args.data)
    net = model()
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)
    print(f'torch {torch.__version__}, {torch.get_num_threads()} threads, {len(train_x)} training images')
    for epoch in range(1, args.epochs + 1):
        net.train()
        order = torch.randperm(len(train_x))
        start = time.perf_counter()
        steps = len(train_x) // args.batch
        total = 0.0
        for step in range(steps):
            index = order[step * args.batch:(step + 1) * args.batch]
            optimizer.zero_grad()
            loss = F.cross_entropy(net(train_x[index]), train_y[index])
            loss.backward()
            optimizer.step()
            total += loss.item()
        seconds = time.perf_counter() - start
        net.eval()
        with torch.no_grad():
            correct = sum((net(test_x[i:i + 500]).argmax(1) == test_y[i:i + 500]).sum().item()
                          for i in range(0, len(test_x), 500))
        print(f'epoch {epoch}: loss {total / steps:.4f}, test accuracy {100 * correct / len(test_x):.2f}%, '
              f'{seconds:.1f} s ({steps * args.batch / seconds:,.0f} images/s)')


if __name__ == '__main__':
    main()
