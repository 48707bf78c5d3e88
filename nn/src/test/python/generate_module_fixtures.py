"""Writes nn/src/test/resources/dev/ein4j/nn/modules.json: PyTorch module and optimizer results
that ModuleFixturesTest reproduces with ein4j's modules (same parameter names, loaded through
loadStateDict).

    pip install torch==2.13.0 && python3 nn/src/test/python/generate_module_fixtures.py

Deterministic (seeded); float64 throughout so that the comparisons can be tight.
"""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(20261130)
torch.set_default_dtype(torch.float64)

OUT = os.path.join(os.path.dirname(__file__), '..', 'resources', 'dev', 'ein4j', 'nn', 'modules.json')


def enc(t):
    t = t.detach()
    dtype = {torch.float64: 'float64', torch.float32: 'float32', torch.int64: 'int32', torch.int32: 'int32',
             torch.bool: 'bool'}[t.dtype]
    values = t.reshape(-1).tolist()
    if dtype == 'bool':
        values = [1 if v else 0 for v in values]
    return {'shape': list(t.shape), 'dtype': dtype, 'data': values}


def state(module):
    return {name: enc(value) for name, value in module.state_dict().items()}


def attention_cases():
    cases = []
    for heads, causal, with_mask in ((2, False, False), (4, True, False), (2, False, True)):
        mha = nn.MultiheadAttention(8, heads, batch_first=True)
        q = torch.randn(2, 5, 8)
        kv = torch.randn(2, 6, 8) if not causal else q
        mask = None
        if with_mask:
            mask = torch.rand(5, 6) > 0.3
            mask[:, 0] = True
        kwargs = {'need_weights': False}
        if causal:
            kwargs['attn_mask'] = torch.ones(5, 5, dtype=torch.bool).triu(1)  # True = masked out in nn.MultiheadAttention
            kwargs['is_causal'] = True
        elif mask is not None:
            kwargs['attn_mask'] = ~mask
        out, _ = mha(q, kv, kv, **kwargs)
        case = {'heads': heads, 'causal': causal, 'state': state(mha), 'query': enc(q), 'key': enc(kv), 'output': enc(out)}
        if mask is not None:
            case['keep'] = enc(mask)
        cases.append(case)
    return cases


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2), nn.ReLU(),
            nn.Flatten(), nn.Linear(6 * 2 * 2, 3))

    def forward(self, x):
        return self.layers(x)


def cnn_case():
    model = SmallCnn().layers
    initial = state(model)
    x = torch.randn(4, 1, 8, 8)
    labels = torch.tensor([0, 2, 1, 2])
    logits = model(x)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    grads = {name: enc(p.grad) for name, p in model.named_parameters()}
    after = {name: enc(v) for name, v in model.state_dict().items() if 'running' in name or 'num_batches' in name}
    model.eval()
    eval_logits = model(x)
    return {'state': initial, 'input': enc(x), 'labels': enc(labels.to(torch.int32)), 'logits': enc(logits),
            'loss': loss.item(), 'grads': grads, 'buffers_after': after, 'eval_logits': enc(eval_logits)}


def optimizer_cases():
    settings = [
        ('sgd', {'lr': 0.1}),
        ('sgd', {'lr': 0.05, 'momentum': 0.9}),
        ('sgd', {'lr': 0.05, 'momentum': 0.9, 'dampening': 0.3, 'weight_decay': 0.01}),
        ('sgd', {'lr': 0.05, 'momentum': 0.8, 'nesterov': True, 'weight_decay': 0.1}),
        ('adam', {'lr': 0.01}),
        ('adam', {'lr': 0.02, 'betas': [0.8, 0.99], 'eps': 1e-6, 'weight_decay': 0.05}),
        ('adamw', {'lr': 0.01}),
        ('adamw', {'lr': 0.03, 'betas': [0.85, 0.95], 'weight_decay': 0.2}),
    ]
    a = torch.randn(3, 4)
    b = torch.randn(3, 4)
    start = torch.randn(3, 4)
    cases = []
    for name, options in settings:
        p = start.clone().requires_grad_(True)
        kwargs = dict(options)
        if 'betas' in kwargs:
            kwargs['betas'] = tuple(kwargs['betas'])
        optimizer = {'sgd': torch.optim.SGD, 'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}[name]([p], **kwargs)
        trajectory = []
        for _ in range(6):
            optimizer.zero_grad()
            ((p * a - b) ** 2).sum().backward()  # gradient 2a(pa - b), changing with p
            optimizer.step()
            trajectory.append(enc(p))
        cases.append({'optimizer': name, 'options': options, 'start': enc(start), 'a': enc(a), 'b': enc(b),
                      'trajectory': trajectory})
    return cases


def main():
    document = {
        'generator': 'nn/src/test/python/generate_module_fixtures.py, torch ' + torch.__version__,
        'attention': attention_cases(),
        'cnn': cnn_case(),
        'optimizers': optimizer_cases(),
    }
    write(OUT, document)


def write(path, document):
    """Compact JSON, one line, as the tests read it."""
    with open(path, 'w') as f:
        json.dump(document, f, separators=(',', ':'))
        f.write('\n')
    print('wrote', os.path.normpath(path), os.path.getsize(path), 'bytes')


if __name__ == '__main__':
    main()
