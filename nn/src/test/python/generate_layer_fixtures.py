"""Writes nn/src/test/resources/dev/ein4j/nn/model_layers.json: Hugging Face's and PyTorch's modules
for the layers that loaded checkpoints need, which ModelLayerFixturesTest reproduces with ein4j's
(same parameter names, loaded through loadStateDict).

    pip install torch==2.13.0 transformers && python3 nn/src/test/python/generate_layer_fixtures.py

Deterministic (seeded). Rotary embeddings and RMSNorm are float32, as Hugging Face computes them
(LlamaRotaryEmbedding forces float32 angles, LlamaRMSNorm float32 statistics); the rest float64.
"""
import os
import sys

import torch
import torch.nn as nn
from transformers import ConvNextConfig, LlamaConfig
from transformers.models.convnext.modeling_convnext import ConvNextLayer, ConvNextLayerNorm
from transformers.models.llama.modeling_llama import (LlamaMLP, LlamaRMSNorm, LlamaRotaryEmbedding,
                                                      apply_rotary_pos_emb)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_module_fixtures import enc, state, write  # noqa: E402  (the same encoding and file layout)

# generate_module_fixtures makes float64 the default on import; these fixtures choose per case
torch.set_default_dtype(torch.float32)
torch.manual_seed(20261201)
torch.set_num_threads(1)

OUT = os.path.join(os.path.dirname(__file__), '..', 'resources', 'dev', 'ein4j', 'nn', 'model_layers.json')


def randomize(module):
    """Random parameters instead of the initial ones (ones / zeros would hide a swapped weight)."""
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn_like(p) * 0.5 + (1.0 if p.ndim == 1 else 0.0))
    return module


def grads(module):
    return {name: enc(p.grad) for name, p in module.named_parameters()}


def rotary_cases():
    cases = []
    for theta, head_dim, q_heads, kv_heads, positions in (
            (10000.0, 8, 4, 2, [[0, 1, 2, 3, 4, 5], [3, 4, 5, 6, 7, 8]]),  # a batch, one row offset (cached prefix)
            (500000.0, 16, 2, 1, [[17]]),                                     # one decoding step at position 17
            (10000.0, 4, 2, 2, [[0, 1, 2, 1000, 2047]])):                     # large positions: float32 angles
        config = LlamaConfig(hidden_size=head_dim * q_heads, num_attention_heads=q_heads, num_key_value_heads=kv_heads,
                             head_dim=head_dim, rope_theta=theta)
        rotary = LlamaRotaryEmbedding(config)
        ids = torch.tensor(positions)
        b, t = ids.shape
        q = torch.randn(b, q_heads, t, head_dim)
        k = torch.randn(b, kv_heads, t, head_dim)
        cos, sin = rotary(q, ids)
        q_embed, k_embed = apply_rotary_pos_emb(q, k, cos, sin)
        cases.append({'theta': theta, 'head_dim': head_dim, 'position_ids': enc(ids.to(torch.int32)),
                      'inv_freq': enc(rotary.inv_freq), 'cos': enc(cos), 'sin': enc(sin), 'q': enc(q), 'k': enc(k),
                      'q_embed': enc(q_embed), 'k_embed': enc(k_embed)})
    return cases


def rms_norm_case():
    norm = randomize(LlamaRMSNorm(8, eps=1e-6))
    x = torch.randn(2, 3, 8) * 3
    y = norm(x)
    (y * torch.linspace(-1, 1, 8)).sum().backward()
    return {'eps': 1e-6, 'state': state(norm), 'input': enc(x), 'output': enc(y), 'grads': grads(norm)}


def mlp_cases():
    cases = []
    for bias, act in ((False, 'silu'), (True, 'gelu_pytorch_tanh')):
        config = LlamaConfig(hidden_size=6, intermediate_size=10, num_attention_heads=2, num_key_value_heads=2,
                             mlp_bias=bias, hidden_act=act)
        mlp = LlamaMLP(config).double()
        x = torch.randn(2, 3, 6, dtype=torch.float64)
        y = mlp(x)
        y.sum().backward()
        cases.append({'bias': bias, 'act': act, 'state': state(mlp), 'input': enc(x), 'output': enc(y),
                      'grads': grads(mlp)})
    return cases


def convnext_cases():
    norm = randomize(ConvNextLayerNorm(5, eps=1e-6, data_format='channels_first')).double()
    x = torch.randn(2, 5, 3, 4, dtype=torch.float64) * 2 + 1
    y = norm(x)
    config = ConvNextConfig(hidden_act='gelu', layer_scale_init_value=0.5)
    layer = randomize(ConvNextLayer(config, dim=4)).double()
    z_in = torch.randn(2, 4, 8, 8, dtype=torch.float64)
    z = layer(z_in)
    z.sum().backward()
    return {'norm': {'state': state(norm), 'input': enc(x), 'output': enc(y)},
            'layer': {'state': state(layer), 'input': enc(z_in), 'output': enc(z), 'grads': grads(layer)}}


def torch_module_cases():
    group = randomize(nn.GroupNorm(2, 4, eps=1e-4)).double()
    rms = randomize(nn.RMSNorm([3, 4])).double()
    up = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2).double()
    x = torch.randn(2, 4, 3, 3, dtype=torch.float64)
    r = torch.randn(2, 5, 3, 4, dtype=torch.float64)
    outputs = {'group_norm': group(x), 'rms_norm': rms(r), 'conv_transpose2d': up(x)}
    for y in outputs.values():
        y.sum().backward()
    return {name: {'state': state(module), 'input': enc(inp), 'output': enc(outputs[name]), 'grads': grads(module)}
            for name, module, inp in (('group_norm', group, x), ('rms_norm', rms, r), ('conv_transpose2d', up, x))}


def main():
    document = {
        'generator': 'nn/src/test/python/generate_layer_fixtures.py, torch %s, transformers %s'
                     % (torch.__version__, __import__('transformers').__version__),
        'rotary': rotary_cases(),
        'rms_norm': rms_norm_case(),
        'mlp': mlp_cases(),
        'convnext': convnext_cases(),
        'torch_modules': torch_module_cases(),
    }
    write(OUT, document)


if __name__ == '__main__':
    main()
