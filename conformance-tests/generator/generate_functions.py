#!/usr/bin/env python3
"""Generate the ein4j `function` conformance fixtures (format `ein4j-conformance/1`).

    pip install torch==2.13.0 numpy
    python3 conformance-tests/generator/generate_functions.py

Writes conformance-tests/fixtures/functions.json (element-wise functions, broadcasting
binary functions, comparisons, reductions, softmax family, casts, layer_norm and losses),
conformance-tests/fixtures/layers.json (linear, convolutions, pooling, batch_norm,
embedding, scaled_dot_product_attention) and conformance-tests/fixtures/model_layers.json
(the layers of loaded checkpoints: conv_transpose2d, adaptive_avg_pool2d, interpolate,
group_norm, rms_norm, relu6 / hardswish / hardsigmoid, gelu at large |x|, attention with
enable_gqa; their tables and naive re-implementations are in model_layers.py) and
conformance-tests/fixtures/indexing.json (gather, index_select, masked_fill, cumsum, topk,
embedding with large vocabularies; in indexing.py), then runs check_functions.py over them.
The output is deterministic: each file has its own fixed seed.

Reference: PyTorch's functional API (torch / torch.nn.functional) evaluated in float64
on the case's inputs, rounded to the output dtype.  Gradients are float64 torch autograd
VJPs of sum_k sum(outputs[k] * upstream[k]) with a random upstream, rounded.
Tolerances are sized by re-running each case in its own dtype (torch for float32 cases,
a naive sequential-accumulation re-implementation for reductions, losses and layers, and
plain numpy formulas) and keeping a 4x margin: defaults unless a re-computation needs more.
"""
import argparse
import json
import math
import os
import sys
import warnings

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate_fixtures as G  # noqa: E402
import model_layers as ML  # noqa: E402
import indexing as IX  # noqa: E402

FIXTURES_DIR = G.FIXTURES_DIR
FORMAT = G.FORMAT
SEEDS = {'functions': 20240201, 'layers': 20240202, 'model_layers': 20240203, 'indexing': 20240204}
FLOAT = ('float32', 'float64')
TORCH_DT = {'float32': torch.float32, 'float64': torch.float64, 'int32': torch.int32, 'bool': torch.bool}
DEFAULT_TOL = G.DEFAULT_TOL
RTOL_STEPS = {'float32': [1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3],
              'float64': [1e-12, 2e-12, 5e-12, 1e-11, 2e-11, 5e-11, 1e-10, 2e-10, 5e-10, 1e-9]}
ATOL_STEPS = {'float32': [1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3],
              'float64': [1e-12, 2e-12, 5e-12, 1e-11, 2e-11, 5e-11, 1e-10, 2e-10, 5e-10, 1e-9]}
TIGHT_ATOL = 1e-30  # precision cases: a purely relative check
MARGIN = G.MARGIN   # re-computations must stay within a quarter of the tolerance

UNARY = {
    'neg': torch.neg, 'abs': torch.abs, 'exp': torch.exp, 'log': torch.log, 'log1p': torch.log1p,
    'expm1': torch.expm1, 'sqrt': torch.sqrt, 'rsqrt': torch.rsqrt, 'sin': torch.sin, 'cos': torch.cos,
    'tanh': torch.tanh, 'sigmoid': torch.sigmoid, 'relu': torch.relu, 'silu': F.silu,
    'softplus': F.softplus, 'square': torch.square, 'reciprocal': torch.reciprocal, 'sign': torch.sign,
}
BINARY = {'add': torch.add, 'sub': torch.sub, 'mul': torch.mul, 'div': torch.div,
          'maximum': torch.maximum, 'minimum': torch.minimum}
COMPARE = {'lt': torch.lt, 'le': torch.le, 'gt': torch.gt, 'ge': torch.ge, 'eq': torch.eq, 'ne': torch.ne}
REDUCE = ('sum', 'mean', 'amax', 'amin', 'prod', 'var', 'std')
FUNCTION_NAMES = (tuple(UNARY) + ('leaky_relu', 'elu', 'gelu', 'pow', 'clamp') + tuple(BINARY) + tuple(COMPARE)
                  + ('where', 'softmax', 'log_softmax', 'logsumexp') + REDUCE
                  + ('argmax', 'argmin', 'one_hot', 'cast', 'layer_norm', 'cross_entropy', 'mse_loss'))
LAYER_NAMES = ('linear', 'conv1d', 'conv2d', 'max_pool2d', 'avg_pool2d', 'batch_norm', 'embedding',
               'scaled_dot_product_attention')
# float inputs that get no gradient (null in grad.inputs): running statistics
NO_GRAD = {'batch_norm': (1, 2)}

torch.set_num_threads(1)


def generator_string():
    return ('ein4j conformance-tests/generator/generate_functions.py: expected values and gradients '
            'computed in float64 with torch %s (torch / torch.nn.functional, autograd VJPs), numpy %s, '
            'then rounded to the output dtype' % (torch.__version__, np.__version__))


# ----------------------------------------------------------------- arguments

class Arg:
    """One input: values as a float64 array (int32 / bool as integers 0/1) and a dtype."""

    def __init__(self, a, dtype):
        a = np.asarray(a, dtype=np.float64)
        self.a = G.round_to(a, dtype) if dtype in FLOAT else a
        self.dtype = dtype

    @property
    def shape(self):
        return self.a.shape


def to_torch(arg, mode):
    """mode 'ref': float inputs as float64; 'sim': float inputs in their own dtype."""
    if arg.dtype in FLOAT:
        return torch.tensor(arg.a, dtype=torch.float64 if mode == 'ref' else TORCH_DT[arg.dtype])
    if arg.dtype == 'int32':
        return torch.tensor(arg.a.astype(np.int64)).to(torch.int32)
    return torch.tensor(arg.a != 0)


def case_float_dtype(args):
    fl = [a.dtype for a in args if a.dtype in FLOAT]
    return fl[0] if fl else None


def grad_positions(name, args):
    return [i for i, a in enumerate(args) if a.dtype in FLOAT and i not in NO_GRAD.get(name, ())]


# ----------------------------------------------------------------- reference (torch functional API)

def _dims(x, dim):
    if dim is None:
        return list(range(x.ndim))
    if isinstance(dim, int):
        return [dim % max(x.ndim, 1)] if x.ndim else [0]
    return sorted(d % x.ndim for d in dim)


def _prod(x, dim, keepdim):
    """torch.prod takes one int dim; a list of dims (allowed by the format) is reduced by
    moving the dims to the end and flattening them."""
    if dim is None:
        r = torch.prod(x)
        return r.reshape([1] * x.ndim) if keepdim else r
    if isinstance(dim, int):
        return torch.prod(x, dim, keepdim=keepdim)
    if len(dim) == 1:
        return torch.prod(x, dim[0], keepdim=keepdim)
    for d in dim:
        if not -x.ndim <= d < x.ndim:
            raise IndexError('dim out of range')
    if len(set(d % x.ndim for d in dim)) != len(dim):
        raise RuntimeError('dim appears multiple times')
    dims = sorted(d % x.ndim for d in dim)
    keep = [d for d in range(x.ndim) if d not in dims]
    y = x.permute(keep + dims).reshape([x.shape[d] for d in keep] + [math.prod(x.shape[d] for d in dims)])
    r = torch.prod(y, -1)
    if keepdim:
        r = r.reshape([1 if d in dims else x.shape[d] for d in range(x.ndim)])
    return r


def fwd(name, p, ts):
    """The reference: torch / torch.nn.functional.  Returns the list of outputs."""
    if name in ML.NEW_NAMES:
        return ML.fwd(name, p, ts)
    if name in IX.NEW_NAMES:
        return IX.fwd(name, p, ts)
    x = ts[0]
    if name in UNARY:
        return [UNARY[name](x)]
    if name == 'leaky_relu':
        return [F.leaky_relu(x, **{k: p[k] for k in ('negative_slope',) if k in p})]
    if name == 'elu':
        return [F.elu(x, **{k: p[k] for k in ('alpha',) if k in p})]
    if name == 'gelu':
        return [F.gelu(x, **{k: p[k] for k in ('approximate',) if k in p})]
    if name == 'pow':
        return [torch.pow(x, p['exponent'])]
    if name == 'clamp':
        return [torch.clamp(x, min=p.get('min'), max=p.get('max'))]
    if name in BINARY:
        return [BINARY[name](x, ts[1])]
    if name in COMPARE:
        return [COMPARE[name](x, ts[1])]
    if name == 'where':
        return [torch.where(x, ts[1], ts[2])]
    if name == 'softmax':
        return [F.softmax(x, dim=p['dim'])]
    if name == 'log_softmax':
        return [F.log_softmax(x, dim=p['dim'])]
    if name == 'logsumexp':
        return [torch.logsumexp(x, dim=p['dim'], keepdim=p.get('keepdim', False))]
    if name in ('sum', 'mean'):
        return [getattr(torch, name)(x, dim=p.get('dim'), keepdim=p.get('keepdim', False))]
    if name in ('amax', 'amin'):
        d = p.get('dim', ())
        return [getattr(torch, name)(x, dim=d, keepdim=p.get('keepdim', False))]
    if name == 'prod':
        return [_prod(x, p.get('dim'), p.get('keepdim', False))]
    if name in ('var', 'std'):
        kw = {'correction': p['correction']} if 'correction' in p else {}
        return [getattr(torch, name)(x, dim=p.get('dim'), keepdim=p.get('keepdim', False), **kw)]
    if name in ('argmax', 'argmin'):
        return [getattr(torch, name)(x, dim=p['dim'], keepdim=p.get('keepdim', False)).to(torch.int32)]
    if name == 'one_hot':
        return [F.one_hot(x.to(torch.int64), p['num_classes']).to(torch.int32)]
    if name == 'cast':
        return [x.to(TORCH_DT[p['dtype']])]
    if name == 'layer_norm':
        return [F.layer_norm(x, p['normalized_shape'], ts[1], ts[2], eps=p.get('eps', 1e-5))]
    if name == 'cross_entropy':
        return [F.cross_entropy(x, ts[1].to(torch.int64), reduction=p.get('reduction', 'mean'),
                                label_smoothing=p.get('label_smoothing', 0.0))]
    if name == 'mse_loss':
        return [F.mse_loss(x, ts[1], reduction=p.get('reduction', 'mean'))]
    if name == 'linear':
        return [F.linear(x, ts[1], ts[2] if len(ts) > 2 else None)]
    if name in ('conv1d', 'conv2d'):
        fn = F.conv1d if name == 'conv1d' else F.conv2d
        kw = {k: p[k] for k in ('stride', 'padding', 'dilation', 'groups') if k in p}
        return [fn(x, ts[1], ts[2] if len(ts) > 2 else None, **kw)]
    if name == 'max_pool2d':
        return [F.max_pool2d(x, p['kernel_size'], stride=p.get('stride'), padding=p.get('padding', 0),
                             dilation=p.get('dilation', 1))]
    if name == 'avg_pool2d':
        return [F.avg_pool2d(x, p['kernel_size'], stride=p.get('stride'), padding=p.get('padding', 0),
                             count_include_pad=p.get('count_include_pad', True),
                             divisor_override=p.get('divisor_override'))]
    if name == 'batch_norm':
        # trailing inputs may be absent: x only (batch statistics), no weight / bias (no affine)
        opt = [ts[i] if len(ts) > i else None for i in range(1, 5)]
        rm, rv = [t.detach().clone() if t is not None else None for t in opt[:2]]
        return [F.batch_norm(x, rm, rv, opt[2], opt[3],
                             training=p.get('training', False), momentum=p.get('momentum', 0.1),
                             eps=p.get('eps', 1e-5))]
    if name == 'embedding':
        # float indices are passed on as such: torch rejects them
        return [F.embedding(x.to(torch.int64) if not x.dtype.is_floating_point else x, ts[1],
                            padding_idx=p.get('padding_idx'))]
    if name == 'scaled_dot_product_attention':
        return [F.scaled_dot_product_attention(x, ts[1], ts[2], attn_mask=ts[3] if len(ts) > 3 else None,
                                               is_causal=p.get('is_causal', False), scale=p.get('scale'),
                                               enable_gqa=p.get('enable_gqa', False))]
    raise ValueError(name)


# ----------------------------------------------------------------- naive re-implementations
# Written from the formulas with explicit sequential accumulation (acc = acc + term, one
# term at a time), in the dtype of the inputs.  In float32 they show the error of a simple
# loop-based implementation (used to size tolerances); in float64 they are an independent
# check of the reference (check_functions.py).  Autograd through them gives gradients
# accumulated in yet another order.

def seq_sum(t):
    """Sum over the last dim, sequentially."""
    acc = torch.zeros(t.shape[:-1], dtype=t.dtype)
    for i in range(t.shape[-1]):
        acc = acc + t[..., i]
    return acc


def seq_prod(t):
    acc = torch.ones(t.shape[:-1], dtype=t.dtype)
    for i in range(t.shape[-1]):
        acc = acc * t[..., i]
    return acc


def _flatten_dims(x, dims):
    keep = [d for d in range(x.ndim) if d not in dims]
    y = x.permute(keep + dims) if x.ndim else x
    return y.reshape([x.shape[d] for d in keep] + [math.prod(x.shape[d] for d in dims)])


def _keep(r, x, dims, keepdim):
    if keepdim:
        return r.reshape([1 if d in dims else x.shape[d] for d in range(x.ndim)])
    return r


def _naive_softmax_parts(x, dim):
    y = x.movedim(dim, -1) if x.ndim else x.reshape(1)
    m = y.detach().amax(-1, keepdim=True)
    z = y - m
    s = seq_sum(torch.exp(z))[..., None]
    return y, z, s


def _pair(v, n):
    if isinstance(v, int):
        return [v] * n
    return list(v)


def _conv_padding(padding, kernel, dilation):
    """(before, after) zeros per spatial dim: an int / list pads both sides alike; 'valid' is no
    padding; 'same' pads dilation * (k - 1) in all, the odd zero after (as PyTorch)."""
    if padding == 'valid':
        return [(0, 0)] * len(kernel)
    if padding == 'same':
        return [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2) for k, d in zip(kernel, dilation)]
    return [(q, q) for q in _pair(padding, len(kernel))]


def naive_conv2d(x, w, b, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = _pair(stride, 2)
    dh, dw = _pair(dilation, 2)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (pt, pb), (pl, pr) = _conv_padding(padding, (kh, kw), (dh, dw))
    xp = F.pad(x, (pl, pr, pt, pb))
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    outs = []
    for g in range(groups):
        acc = torch.zeros((n, og, ho, wo), dtype=x.dtype)
        for ci in range(cg):
            for i in range(kh):
                for j in range(kw):
                    rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
                    cols = slice(j * dw, j * dw + sw * (wo - 1) + 1, sw)
                    patch = xp[:, g * cg + ci, rows, cols]
                    acc = acc + patch[:, None] * w[g * og:(g + 1) * og, ci, i, j][None, :, None, None]
        outs.append(acc)
    out = torch.cat(outs, dim=1)
    if b is not None:
        out = out + b[None, :, None, None]
    return out


def _windows(xp, kh, kw, sh, sw, ho, wo, dh=1, dw=1):
    """The kernel taps in row-major order (the order PyTorch scans a window in)."""
    return [xp[..., i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]
            for i in range(kh) for j in range(kw)]


def naive_pool(name, x, p):
    kh, kw = _pair(p['kernel_size'], 2)
    sh, sw = _pair(p['stride'], 2) if p.get('stride') is not None else (kh, kw)
    ph, pw = _pair(p.get('padding', 0), 2)
    dh, dw = _pair(p.get('dilation', 1), 2)
    h, w = x.shape[-2:]
    ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if name == 'max_pool2d':
        # the first maximum of the window (NaN counts as the maximum) takes the value and, on ties,
        # the whole gradient, as PyTorch's max_pool2d does
        xp = F.pad(x, (pw, pw, ph, ph), value=-math.inf)
        st = torch.stack(_windows(xp, kh, kw, sh, sw, ho, wo, dh, dw), -1)
        first = st.detach().argmax(-1, keepdim=True)
        return st.gather(-1, first)[..., 0]
    xp = F.pad(x, (pw, pw, ph, ph))
    s = seq_sum(torch.stack(_windows(xp, kh, kw, sh, sw, ho, wo), -1))
    if p.get('divisor_override') is not None:
        return s / p['divisor_override']
    if p.get('count_include_pad', True):
        return s / (kh * kw)
    ones = F.pad(torch.ones((h, w), dtype=x.dtype), (pw, pw, ph, ph))
    cnt = seq_sum(torch.stack(_windows(ones, kh, kw, sh, sw, ho, wo), -1))
    return s / cnt


def naive_fwd(name, p, ts):
    """Naive sequential re-implementation, or None where there is none (element-wise
    functions, exact operations)."""
    if name in ML.NEW_NAMES:
        return ML.naive_fwd(name, p, ts)
    if name in IX.NAIVE_NAMES:
        return IX.naive_fwd(name, p, ts)
    x = ts[0]
    if name in ('sum', 'mean', 'prod', 'var', 'std'):
        dims = _dims(x, p.get('dim'))
        y = _flatten_dims(x, dims)
        n = y.shape[-1]
        if name == 'sum':
            r = seq_sum(y)
        elif name == 'mean':
            r = seq_sum(y) / n
        elif name == 'prod':
            r = seq_prod(y)
        else:
            m = seq_sum(y) / n
            d = y - m[..., None]
            r = seq_sum(d * d) / max(n - p.get('correction', 1), 0)
            if name == 'std':
                r = torch.sqrt(r)
        return [_keep(r, x, dims, p.get('keepdim', False))]
    if name in ('softmax', 'log_softmax'):
        y, z, s = _naive_softmax_parts(x, p['dim'])
        r = torch.exp(z) / s if name == 'softmax' else z - torch.log(s)
        return [r.movedim(-1, p['dim']) if x.ndim else r.reshape(())]
    if name == 'logsumexp':
        dims = _dims(x, p['dim'])
        y = _flatten_dims(x, dims)
        m = y.detach().amax(-1)
        r = m + torch.log(seq_sum(torch.exp(y - m[..., None])))
        return [_keep(r, x, dims, p.get('keepdim', False))]
    if name == 'layer_norm':
        k = len(p['normalized_shape'])
        lead = list(x.shape[:x.ndim - k])
        y = x.reshape(lead + [-1])
        n = y.shape[-1]
        m = seq_sum(y)[..., None] / n
        d = y - m
        v = seq_sum(d * d)[..., None] / n
        r = (d / torch.sqrt(v + p.get('eps', 1e-5))).reshape(x.shape)
        return [r * ts[1] + ts[2]]
    if name == 'cross_entropy':
        _, z, s = _naive_softmax_parts(x, 1)
        lsm = z - torch.log(s)
        t = ts[1].to(torch.int64)
        nll = -lsm[torch.arange(x.shape[0]), t]
        eps = p.get('label_smoothing', 0.0)
        if eps:
            loss = (1 - eps) * nll + eps * (-seq_sum(lsm) / x.shape[1])
        else:
            loss = nll
        s = seq_sum(loss)
        return [s / x.shape[0] if p.get('reduction', 'mean') == 'mean' else s]
    if name == 'mse_loss':
        d = x - ts[1]
        sq = d * d
        red = p.get('reduction', 'mean')
        if red == 'none':
            return [sq]
        s = seq_sum(sq.reshape(-1))
        return [s / sq.numel() if red == 'mean' else s]
    if name == 'linear':
        r = seq_sum(x[..., None, :] * ts[1])
        return [r + ts[2] if len(ts) > 2 else r]
    if name == 'conv2d':
        kw = {k: p[k] for k in ('stride', 'padding', 'dilation', 'groups') if k in p}
        unbatched = x.ndim == 3  # [C, H, W]
        r = naive_conv2d(x[None] if unbatched else x, ts[1], ts[2] if len(ts) > 2 else None, **kw)
        return [r[0] if unbatched else r]
    if name == 'conv1d':
        kw = {}
        for k, dflt in (('stride', 1), ('padding', 0), ('dilation', 1)):
            if isinstance(p.get(k), str):  # padding 'same' / 'valid': the unit H axis needs none
                kw[k] = p[k]
            else:
                kw[k] = [dflt if k != 'padding' else 0] + _pair(p.get(k, dflt), 1)
        kw['groups'] = p.get('groups', 1)
        unbatched = x.ndim == 2  # [C, L]
        xb = x[None] if unbatched else x
        r = naive_conv2d(xb[:, :, None, :], ts[1][:, :, None, :], ts[2] if len(ts) > 2 else None, **kw)
        return [r[0, :, 0, :] if unbatched else r[:, :, 0, :]]
    if name in ('max_pool2d', 'avg_pool2d'):
        return [naive_pool(name, x, p)]
    if name == 'batch_norm':
        c = x.shape[1]
        y = x.movedim(1, -1).reshape(-1, c).t()
        shape = [1, c] + [1] * (x.ndim - 2)
        if p.get('training', False) or len(ts) < 3:
            m = seq_sum(y) / y.shape[1]
            d = y - m[:, None]
            v = seq_sum(d * d) / y.shape[1]
        else:
            m, v = ts[1], ts[2]
        r = (x - m.reshape(shape)) / torch.sqrt(v.reshape(shape) + p.get('eps', 1e-5))
        if len(ts) > 3:
            r = r * ts[3].reshape(shape)
        if len(ts) > 4:
            r = r + ts[4].reshape(shape)
        return [r]
    if name == 'scaled_dot_product_attention':
        q, k, v = x, ts[1], ts[2]
        if p.get('enable_gqa', False):
            k, v = ML.repeat_kv_heads(q, k, v)
        scale = p.get('scale')
        if scale is None:
            scale = 1.0 / math.sqrt(q.shape[-1])
        s = seq_sum(q[..., :, None, :] * k[..., None, :, :]) * scale
        L, S = s.shape[-2:]
        if p.get('is_causal', False):
            s = torch.where(torch.ones((L, S), dtype=torch.bool).tril(), s, -math.inf)
        if len(ts) > 3:  # bool: True attends; float: added to the scores
            s = torch.where(ts[3], s, -math.inf) if ts[3].dtype == torch.bool else s + ts[3]
        # a row whose keys are all masked gets zero weights (PyTorch 2.13), without NaN in values or grads
        m = s.detach().amax(-1, keepdim=True)
        m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
        e = torch.exp(s - m)
        den = seq_sum(e)[..., None]
        a = e / torch.where(den > 0, den, torch.ones_like(den))
        return [seq_sum(a[..., :, :, None].movedim(-2, -1) * v[..., None, :, :].movedim(-2, -1))]
    return None


# ----------------------------------------------------------------- numpy formulas
# Plain numpy, written from the definitions: a further re-computation for tolerance
# sizing (in the case dtype) and an independent check (check_functions.py, float64).

def _np_sigmoid(x):
    with np.errstate(all='ignore'):
        return np.where(x >= 0, 1.0 / (1.0 + np.exp(-x)), np.exp(x) / (1.0 + np.exp(x)))


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _axes(x, dim):
    if dim is None:
        return None
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _np_logsumexp(x, axis, keepdims):
    m = np.max(x, axis=axis, keepdims=True)
    ms = np.where(np.isfinite(m), m, 0.0)
    r = np.log(np.sum(np.exp(x - ms), axis=axis, keepdims=True)) + ms
    return r if keepdims else np.squeeze(r, axis=axis)


def _np_log_softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def numpy_fwd(name, p, xs):
    """numpy formulas, float64; None where there is none."""
    if name in ML.NEW_NAMES:
        return ML.numpy_fwd(name, p, xs)
    if name in IX.NEW_NAMES:
        return IX.numpy_fwd(name, p, xs)
    x = xs[0] if xs else None
    un = {
        'neg': np.negative, 'abs': np.abs, 'exp': np.exp, 'log': np.log, 'log1p': np.log1p, 'expm1': np.expm1,
        'sqrt': np.sqrt, 'rsqrt': lambda v: 1.0 / np.sqrt(v), 'sin': np.sin, 'cos': np.cos, 'tanh': np.tanh,
        'sigmoid': _np_sigmoid, 'relu': lambda v: np.maximum(v, 0.0), 'silu': lambda v: v * _np_sigmoid(v),
        'softplus': lambda v: np.logaddexp(0.0, v), 'square': lambda v: v * v, 'reciprocal': lambda v: 1.0 / v,
        'sign': np.sign,
    }
    if name in un:
        return [un[name](x)]
    if name == 'leaky_relu':
        return [np.where(x > 0, x, x * p.get('negative_slope', 0.01))]
    if name == 'elu':
        return [np.where(x > 0, x, p.get('alpha', 1.0) * np.expm1(x))]
    if name == 'gelu':
        if p.get('approximate', 'none') == 'tanh':
            return [0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))]
        return [0.5 * x * (1 + _erf(x / math.sqrt(2)))]
    if name == 'pow':
        return [np.power(x, float(p['exponent']))]
    if name == 'clamp':
        r = x
        if p.get('min') is not None:
            r = np.maximum(r, p['min'])
        if p.get('max') is not None:
            r = np.minimum(r, p['max'])
        return [r]
    binary = {'add': np.add, 'sub': np.subtract, 'mul': np.multiply, 'div': np.divide, 'maximum': np.maximum,
              'minimum': np.minimum, 'lt': np.less, 'le': np.less_equal, 'gt': np.greater, 'ge': np.greater_equal,
              'eq': np.equal, 'ne': np.not_equal}
    if name in binary:
        return [binary[name](x, xs[1])]
    if name == 'where':
        return [np.where(x != 0, xs[1], xs[2])]
    if name == 'softmax':
        return [np.exp(_np_log_softmax(x, p['dim']))] if x.ndim else [np.ones(())]
    if name == 'log_softmax':
        return [_np_log_softmax(x, p['dim'])] if x.ndim else [np.zeros(())]
    if name == 'logsumexp':
        return [_np_logsumexp(x, _axes(x, p['dim']), p.get('keepdim', False))]
    if name in REDUCE:
        ax, kd = _axes(x, p.get('dim')), p.get('keepdim', False)
        fn = {'sum': np.sum, 'mean': np.mean, 'amax': np.amax, 'amin': np.amin, 'prod': np.prod}.get(name)
        if fn is not None:
            return [fn(x, axis=ax, keepdims=kd)]
        v = np.var(x, axis=ax, ddof=p.get('correction', 1), keepdims=kd)
        return [v if name == 'var' else np.sqrt(v)]
    if name in ('argmax', 'argmin'):
        return [getattr(np, name)(x, axis=p['dim'], keepdims=p.get('keepdim', False))]
    if name == 'one_hot':
        return [np.eye(p['num_classes'])[x.astype(np.int64)]]
    if name == 'cast':
        return [x.astype(G.NP_DT[p['dtype']])]
    if name == 'layer_norm':
        k = len(p['normalized_shape'])
        ax = tuple(range(x.ndim - k, x.ndim))
        m = x.mean(axis=ax, keepdims=True)
        v = ((x - m) ** 2).mean(axis=ax, keepdims=True)
        return [(x - m) / np.sqrt(v + p.get('eps', 1e-5)) * xs[1] + xs[2]]
    if name == 'cross_entropy':
        lsm = _np_log_softmax(x, 1)
        t = xs[1].astype(np.int64)
        nll = -lsm[np.arange(x.shape[0]), t]
        eps = p.get('label_smoothing', 0.0)
        loss = (1 - eps) * nll + eps * (-lsm.sum(axis=1) / x.shape[1])
        return [loss.mean() if p.get('reduction', 'mean') == 'mean' else loss.sum()]
    if name == 'mse_loss':
        sq = (x - xs[1]) ** 2
        red = p.get('reduction', 'mean')
        return [sq if red == 'none' else (sq.mean() if red == 'mean' else sq.sum())]
    if name == 'linear':
        r = x @ xs[1].T
        return [r + xs[2] if len(xs) > 2 else r]
    if name == 'embedding':
        return [xs[1][x.astype(np.int64)]]
    return None


def evaluate_numpy(name, p, args, mode='ref'):
    """The numpy formulas on the inputs: float inputs as float64 (mode 'ref') or in their
    own dtype ('sim'); int32 as int64, bool as bool.  Outputs as float64 arrays, or None."""
    xs = []
    for a in args:
        if a.dtype in FLOAT:
            xs.append(a.a.astype(np.float64 if mode == 'ref' else G.NP_DT[a.dtype]))
        elif a.dtype == 'int32':
            xs.append(a.a.astype(np.int64))
        else:
            xs.append(a.a != 0)
    with warnings.catch_warnings(), np.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        r = numpy_fwd(name, p, xs)
    if r is None:
        return None
    return [np.asarray(o).astype(np.float64) for o in r]


# ----------------------------------------------------------------- evaluation

def out_dtype(name, p, t, case_float):
    if t.dtype == torch.bool:
        return 'bool'
    if not t.dtype.is_floating_point:
        return 'int32'
    if name == 'cast':
        return p['dtype']
    return case_float


def evaluate(name, p, args, upstream=None, mode='ref', impl=fwd):
    """Run `impl` on the inputs.  mode 'ref': float inputs as float64; 'sim': in their own
    dtype.  Returns (outputs as float64 arrays, output dtypes, gradients or None), or None
    when impl has no implementation.  Gradients: one per input, None for no gradient."""
    ts = [to_torch(a, mode) for a in args]
    p = ML.effective_params(name, p, case_float_dtype(args))
    gpos = grad_positions(name, args)
    if upstream is not None:
        for i in gpos:
            ts[i].requires_grad_(True)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        outs = impl(name, p, ts)
    if outs is None:
        return None
    cf = case_float_dtype(args)
    odts = [out_dtype(name, p, o, cf) for o in outs]
    outs_np = [o.detach().to(torch.float64).numpy().astype(np.float64) for o in outs]
    grads = None
    if upstream is not None:
        loss = 0
        for o, u in zip(outs, upstream):
            if not o.dtype.is_floating_point:
                continue  # an integer output (topk's indices) contributes nothing
            ut = torch.tensor(np.asarray(u, dtype=np.float64), dtype=torch.float64)
            if mode == 'ref':
                loss = loss + (o.to(torch.float64) * ut).sum()
            else:
                loss = loss + (o * ut.to(o.dtype)).sum()
        if isinstance(loss, torch.Tensor) and loss.requires_grad:
            gs = torch.autograd.grad(loss, [ts[i] for i in gpos], allow_unused=True)
        else:  # no output depends on the inputs (zero-size tensors in a naive loop)
            gs = [None] * len(gpos)
        grads = [None] * len(args)
        for i, g in zip(gpos, gs):
            grads[i] = np.zeros(args[i].shape) if g is None else g.detach().to(torch.float64).numpy()
    return outs_np, odts, grads


def raises(name, p, args):
    """(True, message) when the torch reference rejects the call."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            fwd(name, p, [to_torch(a, 'ref') for a in args])
        return False, 'accepted'
    except Exception as e:  # any rejection counts
        return True, '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:90] if str(e) else '')


# ----------------------------------------------------------------- tolerance sizing

def exact_match(a, e):
    a, e = np.asarray(a, dtype=np.float64), np.asarray(e, dtype=np.float64)
    return a.shape == e.shape and np.array_equal(a, e, equal_nan=True)


def _candidates(dtype, precision):
    rt, at = RTOL_STEPS[dtype], ATOL_STEPS[dtype]
    cands = []
    if precision:
        cands += [(r, TIGHT_ATOL) for r in rt]
    order = sorted(((ri, ai) for ri in range(len(rt)) for ai in range(len(at))),
                   key=lambda t: (max(t), t[0] + t[1], t[0]))
    return cands + [(rt[ri], at[ai]) for ri, ai in order]


def pick_tolerance(dtype, pairs, precision=False):
    """pairs: (simulated, expected) float arrays.  The smallest (rtol, atol) under which every
    simulation stays within MARGIN of the tolerance."""
    for rtol, atol in _candidates(dtype, precision):
        if all(G.violation(s, e, rtol, atol) <= MARGIN for s, e in pairs):
            return rtol, atol
    worst = max(G.violation(s, e, RTOL_STEPS[dtype][-1], ATOL_STEPS[dtype][-1]) for s, e in pairs)
    raise RuntimeError('no tolerance fits (violation %.3g at the loosest step)' % worst)


def size_tolerances(name, p, args, case_dtype, exp_outs, odts, upstream, exp_grads, precision):
    """Returns ((rtol, atol), (grad_rtol, grad_atol) or None)."""
    sims = []
    finite = all(np.isfinite(a.a).all() for a in args)
    if case_dtype == 'float32':
        sims.append(evaluate(name, p, args, upstream, mode='sim'))
    if finite:
        r = evaluate(name, p, args, upstream, mode='sim', impl=naive_fwd)
        if r is not None:
            sims.append(r)
        r = evaluate_numpy(name, p, args, 'sim')
        if r is not None:
            sims.append((r, odts, [None] * len(args) if upstream is not None else None))
    out_pairs, grad_pairs = [], []
    for outs, sdts, grads in sims:
        for o, e, odt, sdt in zip(outs, exp_outs, odts, sdts):
            assert sdt == odt, (name, sdt, odt)
            if odt in FLOAT:
                out_pairs.append((o, e))
            elif not exact_match(o, e):
                raise RuntimeError('%s: integer/bool output differs in a re-computation' % name)
        if exp_grads is not None:
            for g, e in zip(grads, exp_grads):
                if e is not None and g is not None:
                    grad_pairs.append((g, e))
    tol_dtype = case_dtype
    if not out_pairs:
        out_pairs = [(np.zeros(0), np.zeros(0))]
    tol = pick_tolerance(tol_dtype, out_pairs, precision)
    gtol = pick_tolerance(tol_dtype, grad_pairs, precision) if exp_grads is not None and grad_pairs else None
    return tol, gtol


# ----------------------------------------------------------------- case assembly

def enc_arg(a):
    return G.enc_tensor(a.a, a.dtype)


class Builder:
    def __init__(self, rng, prefix):
        self.rng = rng
        self.prefix = prefix
        self.cases = []
        self.ids = set()
        self.notes = []

    def _id(self, name, label):
        cid = '%s/%s/%s' % (self.prefix, name, label)
        assert cid not in self.ids, 'duplicate id ' + cid
        self.ids.add(cid)
        return cid

    def case(self, name, label, args, params=None, grad=True, precision=False):
        """A value case.  grad: True = gradients wherever the inputs are finite, there is a
        float input and a float output (the generator stops if torch's gradient is
        not finite there); 'auto' = the same, but left out (and reported) where torch's
        gradient is not finite; False = none."""
        p = dict(params or {})
        cid = self._id(name, label)
        cf = case_float_dtype(args)
        outs, odts, _ = evaluate(name, p, args)
        finite = all(np.isfinite(a.a).all() for a in args)
        want = (grad and finite and bool(grad_positions(name, args))
                and any(d in FLOAT for d in odts))
        # an integer output (topk's indices) gets an upstream of zeros: it contributes nothing
        upstream = [G.normal_values(self.rng, o.shape, d) if d in FLOAT else np.zeros(o.shape)
                    for o, d in zip(outs, odts)] if want else None
        outs, odts, grads = evaluate(name, p, args, upstream)
        exp_outs = [G.round_to(o, d) if d in FLOAT else o for o, d in zip(outs, odts)]
        exp_grads = None
        if want:
            exp_grads = [None if g is None else G.round_to(g, a.dtype) for g, a in zip(grads, args)]
            if not all(np.isfinite(g).all() for g in exp_grads if g is not None):
                if grad != 'auto':
                    raise RuntimeError('%s: gradient not finite' % cid)
                self.notes.append('%s: no grad, torch gradient not finite' % cid)
                want, upstream, exp_grads = False, None, None
        # tolerances refer to the float dtype of the outputs (that of the float inputs where
        # the outputs are int32 / bool); written explicitly where float inputs and outputs differ
        out_fl = [d for d in odts if d in FLOAT]
        in_fl = [a.dtype for a in args if a.dtype in FLOAT]
        tol_dtype = out_fl[0] if out_fl else (in_fl[0] if in_fl else None)
        mixed = bool(out_fl and in_fl and set(out_fl) != set(in_fl))
        tol = gtol = None
        if tol_dtype is not None:
            try:
                tol, gtol = size_tolerances(name, p, args, tol_dtype, exp_outs, odts, upstream, exp_grads,
                                            precision)
            except RuntimeError as e:
                raise RuntimeError('%s: %s' % (cid, e)) from None
        case = {'id': cid, 'op': 'function', 'name': name}
        if p:
            case['params'] = p
        case['inputs'] = [enc_arg(a) for a in args]
        case['expected'] = {'outputs': [G.enc_tensor(o, d) for o, d in zip(exp_outs, odts)]}
        if want:
            case['grad'] = {'upstream': [G.enc_tensor(u, d) for u, d in zip(upstream, odts)],
                            'inputs': [None if g is None else G.enc_tensor(g, a.dtype)
                                       for g, a in zip(exp_grads, args)]}
        if tol is not None:
            default = DEFAULT_TOL[tol_dtype]
            if tol != default or mixed:
                case['rtol'], case['atol'] = tol
            if gtol is not None and gtol != tol:
                case['grad_rtol'], case['grad_atol'] = gtol
        self.cases.append(case)
        return case

    def error(self, name, label, args, params=None, kind='shape'):
        p = dict(params or {})
        cid = self._id(name, label)
        rejected, msg = raises(name, p, args)
        if not rejected:
            raise RuntimeError('%s: torch accepts a call tagged as an error' % cid)
        case = {'id': cid, 'op': 'function', 'name': name}
        if p:
            case['params'] = p
        case['inputs'] = [enc_arg(a) for a in args]
        case['expected'] = {'error': kind}
        self.cases.append(case)
        return case


# ----------------------------------------------------------------- values

def sig6(x):
    return np.array([float('%.6g' % v) for v in np.ravel(x)], dtype=np.float64).reshape(np.shape(x))


def rvals(rng, shape, dtype, kind='normal'):
    """Random values, 6 significant digits, rounded to dtype.  kinds: normal, pos (>= 0.1),
    gt-1 (in (-0.9, 3)), nonzero (|x| >= 0.2), distinct (normal, no two equal)."""
    n = math.prod(shape)
    while True:
        if kind == 'gt-1':
            x = rng.uniform(-0.9, 3.0, n)
        else:
            x = rng.standard_normal(n)
            if kind == 'pos':
                x = np.abs(x) + 0.1
            elif kind == 'nonzero':
                x = np.sign(x) * (np.abs(x) + 0.2)
        x = G.round_to(sig6(x), dtype)
        if kind != 'distinct' or len(np.unique(x)) == n:
            return x.reshape(shape)


def A(a, dtype):
    return Arg(a, dtype)


def R(rng, shape, dtype, kind='normal'):
    return Arg(rvals(rng, shape, dtype, kind), dtype)


def I(a):
    return Arg(np.asarray(a, dtype=np.float64), 'int32')


def B(a):
    return Arg(np.asarray(a, dtype=np.float64), 'bool')


def dt(d):
    return G.dt_short(d)


def shp(s):
    return 'x'.join(str(d) for d in s) if len(s) else 'scalar'


nan, inf = math.nan, math.inf
SPECIALS = [0.0, -0.0, inf, -inf, nan, 2.5, -1.5, 1e-3]
# torch gives NaN at a point with a well-defined limit, or a non-NaN result for NaN: left out
SPECIAL_EXCLUDE = {
    'sign': [nan],    # torch.sign(nan) == 0 (numpy: nan)
    'silu': [-inf],   # torch: -inf * sigmoid(-inf) = nan (limit 0)
    'gelu': [-inf, inf],  # torch: gelu(-inf) = nan (limit 0); float32 gelu(inf) = nan, float64 inf
    'gelu-tanh': [-inf],  # approximate='tanh': gelu(-inf) = nan (limit 0)
}


def specials_for(name, params=None):
    def same(v, e):
        return (math.isnan(v) and math.isnan(e)) or (v == e and math.copysign(1, v) == math.copysign(1, e))
    key = 'gelu-tanh' if name == 'gelu' and (params or {}).get('approximate') == 'tanh' else name
    return [v for v in SPECIALS if not any(same(v, e) for e in SPECIAL_EXCLUDE.get(key, []))]


DOMAIN = {'log': 'pos', 'sqrt': 'pos', 'rsqrt': 'pos', 'log1p': 'gt-1', 'reciprocal': 'nonzero'}
STABILITY = {
    'sigmoid': [-1e4, -100, -30, 30, 100, 1e4],
    'tanh': [-1e4, -100, -20, 20, 100, 1e4],
    'softplus': [-1e4, -100, -30, 30, 100, 1e4],
    'silu': [-1e4, -100, -30, 30, 100, 1e4],
    'exp': [-1e4, -100, -50, 50, 80],
    'expm1': [-1e4, -100, -50, 50, 80],
    'log': [1e-30, 1e-10, 1e10, 1e30],
    'log1p': [-0.999999, 1e-30, 1e10, 1e30],
}
PRECISION = [1e-8, -1e-8, 1e-4, 1e-12, -1e-12]


# ----------------------------------------------------------------- functions.json

def gen_functions(rng):
    b = Builder(rng, 'function')
    # ---------------- unary element-wise
    for name in UNARY:
        kind = DOMAIN.get(name, 'normal')
        for d in FLOAT:
            b.case(name, 'random-%s' % dt(d), [R(rng, (3, 4), d, kind)])
            b.case(name, 'scalar-%s' % dt(d), [R(rng, (), d, kind)])
        for d in FLOAT:
            sp = specials_for(name)
            if name == 'log1p':
                sp = sp + [-1.0, -2.0]
            b.case(name, 'special-%s' % dt(d), [A(sp, d)], grad=False)
        if name in STABILITY:
            for d in FLOAT:
                b.case(name, 'stability-%s' % dt(d), [A(STABILITY[name], d)])
    for name in ('exp', 'relu', 'sqrt'):
        for d in FLOAT:
            b.case(name, 'zero-size-%s' % dt(d), [A(np.zeros((0, 3)), d)])
    for d in FLOAT:  # kinks where torch's gradient is defined as 0
        b.case('relu', 'kink-at-zero-%s' % dt(d), [A([0.0, -0.0, 1.5, -2.0], d)])
        b.case('abs', 'kink-at-zero-%s' % dt(d), [A([0.0, -0.0, 1.5, -2.0], d)])
    for name in ('tanh', 'expm1', 'log1p', 'sigmoid', 'sin', 'silu'):
        for d in FLOAT:
            b.case(name, 'precision-%s' % dt(d), [A(PRECISION, d)], precision=True)
    # ---------------- parameterised activations
    for name, pname, values in (('leaky_relu', 'negative_slope', [None, 0.2, 0.01]),
                                ('elu', 'alpha', [None, 0.5, 1.5]),
                                ('gelu', 'approximate', [None, 'none', 'tanh'])):
        for v in values:
            params = {} if v is None else {pname: v}
            tag = 'default' if v is None else ('%s' % v).replace('.', 'p')
            for d in FLOAT:
                b.case(name, '%s-random-%s' % (tag, dt(d)), [R(rng, (3, 4), d)], params)
                b.case(name, '%s-special-%s' % (tag, dt(d)), [A(specials_for(name, params), d)], params, grad=False)
    for name, params in (('gelu', {'approximate': 'none'}), ('gelu', {'approximate': 'tanh'}),
                         ('elu', {'alpha': 1.0}), ('elu', {'alpha': 0.5})):
        tag = str(list(params.values())[0]).replace('.', 'p')
        for d in FLOAT:
            b.case(name, '%s-stability-%s' % (tag, dt(d)), [A([-1e4, -100, -30, 30, 100, 1e4], d)], params)
            pr = [v for v in PRECISION] if name == 'gelu' else [-1e-8, -1e-4, -1e-12, 1e-8, 1e-12]
            b.case(name, '%s-precision-%s' % (tag, dt(d)), [A(pr, d)], params, precision=True)
    # ---------------- pow
    for e in (2, 3, -1, 0.5, 2.5, -2, 0):
        kind = 'pos' if e in (0.5, 2.5) else ('nonzero' if e < 0 else 'normal')
        tag = str(e).replace('.', 'p').replace('-', 'm')
        for d in FLOAT:
            b.case('pow', 'exp%s-random-%s' % (tag, dt(d)), [R(rng, (3, 4), d, kind)], {'exponent': e})
            b.case('pow', 'exp%s-special-%s' % (tag, dt(d)), [A(SPECIALS + [-8.0], d)], {'exponent': e}, grad=False)
    # ---------------- clamp
    for tag, params in (('min', {'min': -0.5}), ('max', {'max': 0.5}), ('both', {'min': -0.5, 'max': 0.75}),
                        ('min-gt-max', {'min': 1.0, 'max': -1.0})):
        for d in FLOAT:
            x = rvals(rng, (3, 4), d)
            assert not np.isin(x, [-0.5, 0.5, 0.75, 1.0, -1.0]).any()
            b.case('clamp', '%s-random-%s' % (tag, dt(d)), [A(x, d)], params)
    for d in FLOAT:
        b.case('clamp', 'both-special-%s' % dt(d), [A(SPECIALS, d)], {'min': -1.0, 'max': 1.0}, grad=False)
    # ---------------- binary, broadcasting
    shapes = [((3, 1), (4,)), ((2, 3), (2, 3)), ((), ()), ((2, 3), ()), ((), (3,)), ((2, 1, 3), (4, 1))]
    for name in BINARY:
        for sx, sy in shapes:
            for d in FLOAT:
                ky = 'nonzero' if name == 'div' else ('distinct' if name in ('maximum', 'minimum') else 'normal')
                x = R(rng, sx, d)
                y = R(rng, sy, d, ky)
                if name in ('maximum', 'minimum'):  # no ties: the gradient is not defined there
                    assert not np.isin(x.a, y.a).any()
                b.case(name, '%s-%s-%s' % (shp(sx), shp(sy), dt(d)), [x, y])
        for d in FLOAT:
            xs = [nan, 1.0, inf, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.0, 2.0, -inf]
            ys = [1.0, nan, inf, -inf, 2.0, -0.0, 0.0, 0.0, -0.0, 0.0, inf, -inf]
            b.case(name, 'special-%s' % dt(d), [A(xs, d), A(ys, d)], grad=False)
        b.error(name, 'not-broadcastable', [R(rng, (2, 3), 'float32'), R(rng, (4,), 'float32')])
        b.error(name, 'not-broadcastable-2', [R(rng, (3, 2), 'float64'), R(rng, (2, 3), 'float64')])
    for d in FLOAT:
        b.case('add', 'zero-size-broadcast-%s' % dt(d), [R(rng, (0, 3), d), R(rng, (1, 3), d)])
    # ---------------- comparisons (bool output): ties, NaN, -0 / 0, infinities
    for name in COMPARE:
        for d in FLOAT:
            x = rvals(rng, (3, 4), d)
            y = rvals(rng, (4,), d)
            x[0, 1], x[1, 3], x[2, 0] = y[1], y[3], y[0]  # ties
            b.case(name, 'ties-3x4-4-%s' % dt(d), [A(x, d), A(y, d)])
            xs = [nan, 1.0, nan, 0.0, -0.0, inf, -inf, inf, 1.0, -inf]
            ys = [1.0, nan, nan, -0.0, 0.0, inf, -inf, 1.0, inf, -1.0]
            b.case(name, 'special-%s' % dt(d), [A(xs, d), A(ys, d)])
            x = R(rng, (), d)
            y = rvals(rng, (3,), d)
            y[1] = x.a
            b.case(name, 'scalar-3-ties-%s' % dt(d), [x, A(y, d)])
    b.error('eq', 'not-broadcastable', [R(rng, (2, 3), 'float32'), R(rng, (2,), 'float32')])
    b.error('lt', 'not-broadcastable', [R(rng, (4, 1), 'float64'), R(rng, (3, 2), 'float64')])
    # ---------------- where
    for sc, sx, sy in (((3, 4), (3, 4), (3, 4)), ((3, 1), (3, 4), (4,)), ((4,), (3, 1), ()), ((), (2,), (2,))):
        for d in FLOAT:
            c = B(rng.integers(0, 2, size=sc))
            b.case('where', '%s-%s-%s-%s' % (shp(sc), shp(sx), shp(sy), dt(d)), [c, R(rng, sx, d), R(rng, sy, d)])
    for d in FLOAT:  # NaN / inf in the branch not taken must not leak
        c = B([1, 0, 1, 0, 1, 0])
        xs = A([1.0, nan, -inf, inf, 2.0, nan], d)
        ys = A([nan, 3.0, nan, -1.0, inf, 4.0], d)
        b.case('where', 'nan-in-unselected-branch-%s' % dt(d), [c, xs, ys])
    b.error('where', 'not-broadcastable', [B(np.ones((2, 3))), R(rng, (2, 3), 'float32'), R(rng, (4,), 'float32')])
    # ---------------- softmax family
    for name in ('softmax', 'log_softmax'):
        for dim in (-1, 0, 1, -3):
            for d in FLOAT:
                b.case(name, 'dim%s-2x3x4-%s' % (str(dim).replace('-', 'm'), dt(d)), [R(rng, (2, 3, 4), d)],
                       {'dim': dim})
        for d in FLOAT:
            b.case(name, 'vector-%s' % dt(d), [R(rng, (5,), d)], {'dim': 0})
            big = [[1e4, 0.0, -1e4], [1000.0, 1000.5, 999.0], [-1e4, -9999.0, -1e4]]
            b.case(name, 'stability-rows-%s' % dt(d), [A(big, d)], {'dim': -1})
            b.case(name, 'stability-cols-%s' % dt(d), [A(big, d)], {'dim': 0})
            b.case(name, 'neg-inf-entries-%s' % dt(d), [A([[0.5, -inf, 1.0, -inf], [-inf, -inf, 2.0, -inf]], d)],
                   {'dim': 1})
        b.error(name, 'dim-out-of-range', [R(rng, (2, 3), 'float32')], {'dim': 2})
        b.error(name, 'negative-dim-out-of-range', [R(rng, (2, 3), 'float64')], {'dim': -3})
    for tag, params in (('dim1', {'dim': 1}), ('dimm1-keepdim', {'dim': -1, 'keepdim': True}),
                        ('dim0-keepdim-false', {'dim': 0, 'keepdim': False}), ('dim2', {'dim': 2})):
        for d in FLOAT:
            b.case('logsumexp', '%s-2x3x4-%s' % (tag, dt(d)), [R(rng, (2, 3, 4), d)], params)
    for d in FLOAT:
        b.case('logsumexp', 'vector-%s' % dt(d), [R(rng, (5,), d)], {'dim': 0})
        big = [[1e4, 0.0, -1e4], [1000.0, 1000.5, 999.0], [-1e4, -9999.0, -1e4]]
        b.case('logsumexp', 'stability-rows-%s' % dt(d), [A(big, d)], {'dim': 1, 'keepdim': True})
        b.case('logsumexp', 'stability-cols-%s' % dt(d), [A(big, d)], {'dim': 0})
        b.case('logsumexp', 'special-%s' % dt(d),
               [A([[0.5, -inf, 1.0], [-inf, -inf, -inf], [1.0, inf, 2.0], [nan, 0.0, 1.0]], d)], {'dim': 1})
    b.error('logsumexp', 'dim-out-of-range', [R(rng, (2, 3), 'float32')], {'dim': 2})
    # ---------------- reductions
    variants = [('all', {}), ('all-keepdim', {'keepdim': True}), ('dim1', {'dim': 1}),
                ('dimm1-keepdim', {'dim': -1, 'keepdim': True}), ('dims-0-2', {'dim': [0, 2]}),
                ('dims-m1-0-keepdim', {'dim': [-1, 0], 'keepdim': True})]
    for name in REDUCE:
        for i, (tag, params) in enumerate(variants):
            params = dict(params)
            if name in ('var', 'std'):
                params['correction'] = (1, 0, 2, 1, 0, 2)[i]
                if i == 3:
                    del params['correction']  # default correction (1)
            for d in FLOAT:
                kind = 'distinct' if name in ('amax', 'amin') else 'normal'
                b.case(name, '%s-2x3x4-%s' % (tag, dt(d)), [R(rng, (2, 3, 4), d, kind)], params)
        for d in FLOAT:
            b.case(name, 'vector-dim0-%s' % dt(d), [R(rng, (5,), d, 'distinct')],
                   {'dim': 0, 'correction': 1} if name in ('var', 'std') else {'dim': 0})
        for d in FLOAT:
            # std of one element: zero variance, where sqrt is not differentiable (torch gives 0)
            b.case(name, 'scalar-input-%s' % dt(d), [R(rng, (), d)],
                   {'correction': 0} if name in ('var', 'std') else {}, grad=name != 'std')
        b.error(name, 'dim-out-of-range', [R(rng, (2, 3, 4), 'float32')], {'dim': 3})
        b.error(name, 'dim-list-out-of-range', [R(rng, (2, 3), 'float64')], {'dim': [0, -3]})
        b.error(name, 'duplicate-dims', [R(rng, (2, 3), 'float32')], {'dim': [1, -1]}, kind='any')
    for name in ('sum', 'mean', 'amax', 'amin', 'prod', 'var', 'std'):
        for d in FLOAT:
            x = rvals(rng, (3, 4), d)
            x[0, 1], x[1, 2], x[2, 3] = nan, inf, -inf
            b.case(name, 'special-%s' % dt(d), [A(x, d)], {'dim': 1})
    for d in FLOAT:
        x = rvals(rng, (3, 4), d)
        x[0, 1] = x[1, 2] = x[1, 0] = 0.0
        b.case('prod', 'zeros-dim1-%s' % dt(d), [A(x, d)], {'dim': 1})
        b.case('prod', 'zeros-dims-0-1-%s' % dt(d), [A(x, d)], {'dim': [0, 1]})
        for name in ('sum', 'prod'):
            b.case(name, 'empty-dim-%s' % dt(d), [A(np.zeros((0, 3)), d)], {'dim': 0})
        b.case('mean', 'empty-dim-%s' % dt(d), [A(np.zeros((0, 3)), d)], {'dim': 0})
        b.case('amax', 'empty-other-dim-%s' % dt(d), [A(np.zeros((0, 3)), d)], {'dim': 1})
        b.case('var', 'single-element-correction1-%s' % dt(d), [R(rng, (1, 3), d)], {'dim': 0, 'correction': 1},
               grad=False)
        off = rvals(rng, (2, 8), d) + 1e4
        for name in ('var', 'std'):
            b.case(name, 'stability-offset-1e4-%s' % dt(d), [A(off, d)], {'dim': 1})
        b.case('mean', 'stability-offset-1e4-%s' % dt(d), [A(off, d)], {'dim': 1})
    for name in ('amax', 'amin'):
        b.error(name, 'empty-dim', [A(np.zeros((0, 3)), 'float32')], {'dim': 0})
        b.error(name, 'empty-all', [A(np.zeros((2, 0)), 'float64')], {})
    # ---------------- argmax / argmin (int32 output, first index on ties)
    for name in ('argmax', 'argmin'):
        for d in FLOAT:
            x = np.array([[1.0, 3.0, 3.0, 0.0], [-1.0, -1.0, 2.0, -1.0], [5.0, 5.0, 5.0, 5.0]])
            b.case(name, 'ties-dim1-%s' % dt(d), [A(x, d)], {'dim': 1})
            b.case(name, 'ties-dim0-keepdim-%s' % dt(d), [A(x, d)], {'dim': 0, 'keepdim': True})
            b.case(name, 'dimm1-2x3x4-%s' % dt(d), [R(rng, (2, 3, 4), d)], {'dim': -1})
            b.case(name, 'dim1-keepdim-2x3x4-%s' % dt(d), [R(rng, (2, 3, 4), d)], {'dim': 1, 'keepdim': True})
            b.case(name, 'vector-%s' % dt(d), [R(rng, (6,), d)], {'dim': 0})
            x = np.array([[1.0, nan, 3.0, nan], [-inf, 0.0, inf, 2.0], [-0.0, 0.0, -1.0, -inf]])
            b.case(name, 'nan-inf-dim1-%s' % dt(d), [A(x, d)], {'dim': 1})
        b.error(name, 'empty-dim', [A(np.zeros((0, 3)), 'float32')], {'dim': 0})
        b.error(name, 'dim-out-of-range', [R(rng, (2, 3), 'float64')], {'dim': 2})
    # ---------------- one_hot
    b.case('one_hot', 'vector', [I([0, 2, 1, 3, 2])], {'num_classes': 4})
    b.case('one_hot', 'batch-time', [I([[0, 4, 1], [3, 3, 2]])], {'num_classes': 5})
    b.case('one_hot', 'scalar', [I(2)], {'num_classes': 3})
    b.case('one_hot', 'zero-size', [I(np.zeros((0,)))], {'num_classes': 3})
    b.error('one_hot', 'index-too-large', [I([0, 4, 1])], {'num_classes': 4}, kind='any')
    b.error('one_hot', 'negative-index', [I([0, -1, 1])], {'num_classes': 4}, kind='any')
    # ---------------- cast
    fvals = [-2.75, -1.5, -0.5, -0.0, 0.0, 0.25, 0.999, 1.0, 2.5, 3.9999, 100.75, -123456.5, 1e9, -2147483648.0]
    f64extra = [2147483647.9, -2147483648.9, 0.1, 1.0 + 2.0 ** -24, 1.0 + 3 * 2.0 ** -24, 1e-40, 3.5e38, 1e39]
    ivals = [0, 1, -1, 7, -42, 16777217, -16777219, 2147483647, -2147483648, 123456789]
    bvals = [0, 1, 1, 0, 1]
    for src in ('float32', 'float64', 'int32', 'bool'):
        for tgt in ('float32', 'float64', 'int32', 'bool'):
            if src == 'float32':
                x = A(fvals, src)
            elif src == 'float64':
                v = fvals + f64extra
                if tgt == 'int32':
                    v = [u for u in v if abs(u) < 2.2e9]
                x = A(v, src)
            elif src == 'int32':
                x = I(ivals)
            else:
                x = B(bvals)
            b.case('cast', '%s-to-%s' % (dt(src), dt(tgt)), [x], {'dtype': tgt})
        if src in FLOAT:
            for tgt in ('float32', 'float64', 'bool'):
                b.case('cast', '%s-to-%s-special' % (dt(src), dt(tgt)), [A([nan, inf, -inf, -0.0, 0.0], src)],
                       {'dtype': tgt}, grad=False)
    b.case('cast', 'i32-2x3-to-f64', [I([[1, -2, 3], [0, 5, -6]])], {'dtype': 'float64'})
    b.case('cast', 'f32-2x3-to-f64', [R(rng, (2, 3), 'float32')], {'dtype': 'float64'})
    # ---------------- layer_norm
    for tag, shape, ns, eps in (('last-dim', (2, 3, 4), [4], None), ('last-two-dims', (2, 3, 4), [3, 4], 1e-3),
                                ('2d', (4, 5), [5], 1e-5), ('all-dims', (3, 4), [3, 4], None)):
        params = {'normalized_shape': ns}
        if eps is not None:
            params['eps'] = eps
        for d in FLOAT:
            b.case('layer_norm', '%s-%s' % (tag, dt(d)), [R(rng, shape, d), R(rng, tuple(ns), d), R(rng, tuple(ns), d)],
                   params)
    for d in FLOAT:
        x = rvals(rng, (3, 6), d) + 1e3
        b.case('layer_norm', 'stability-offset-1e3-%s' % dt(d), [A(x, d), R(rng, (6,), d), R(rng, (6,), d)],
               {'normalized_shape': [6]})
    b.error('layer_norm', 'normalized-shape-mismatch', [R(rng, (2, 3, 4), 'float32'), R(rng, (3,), 'float32'),
                                                         R(rng, (3,), 'float32')], {'normalized_shape': [3]})
    b.error('layer_norm', 'weight-shape-mismatch', [R(rng, (2, 3, 4), 'float64'), R(rng, (3,), 'float64'),
                                                     R(rng, (4,), 'float64')], {'normalized_shape': [4]})
    # ---------------- cross_entropy
    for red in ('mean', 'sum'):
        for ls in (0.0, 0.1):
            for d in FLOAT:
                b.case('cross_entropy', '%s-ls%s-%s' % (red, str(ls).replace('.', 'p'), dt(d)),
                       [R(rng, (4, 5), d), I(rng.integers(0, 5, size=4))], {'reduction': red, 'label_smoothing': ls})
    for d in FLOAT:
        b.case('cross_entropy', 'default-params-%s' % dt(d), [R(rng, (3, 4), d), I([3, 0, 3])])
        b.case('cross_entropy', 'single-row-%s' % dt(d), [R(rng, (1, 3), d), I([1])], {'reduction': 'sum'})
        big = [[1e4, 0.0, -1e4], [1000.0, 1000.5, 999.0], [-1e4, -9999.0, -1e4]]
        for red in ('mean', 'sum'):
            for ls in (0.0, 0.1):
                b.case('cross_entropy', 'stability-%s-ls%s-%s' % (red, str(ls).replace('.', 'p'), dt(d)),
                       [A(big, d), I([2, 1, 0])], {'reduction': red, 'label_smoothing': ls})
    b.error('cross_entropy', 'target-length-mismatch', [R(rng, (4, 5), 'float32'), I([0, 1, 2])],
            {'reduction': 'mean'})
    b.error('cross_entropy', 'target-out-of-range', [R(rng, (3, 4), 'float64'), I([0, 4, 1])],
            {'reduction': 'sum'}, kind='any')
    # ---------------- mse_loss
    for red in ('mean', 'sum', 'none'):
        for d in FLOAT:
            b.case('mse_loss', '%s-3x4-%s' % (red, dt(d)), [R(rng, (3, 4), d), R(rng, (3, 4), d)], {'reduction': red})
    for d in FLOAT:
        b.case('mse_loss', 'default-vector-%s' % dt(d), [R(rng, (5,), d), R(rng, (5,), d)])
    b.error('mse_loss', 'shape-mismatch', [R(rng, (3, 4), 'float32'), R(rng, (2, 4), 'float32')], {'reduction': 'mean'})
    b.error('mse_loss', 'shape-mismatch-2', [R(rng, (3,), 'float64'), R(rng, (4,), 'float64')], {'reduction': 'sum'})
    return b


# ----------------------------------------------------------------- layers.json

def gen_layers(rng):
    b = Builder(rng, 'layer')
    # ---------------- linear
    for tag, xs, ws, bias in (('rank2-bias', (3, 4), (5, 4), True), ('rank2-no-bias', (3, 4), (2, 4), False),
                              ('rank3-bias', (2, 3, 4), (3, 4), True), ('rank3-no-bias', (2, 3, 5), (4, 5), False)):
        for d in FLOAT:
            args = [R(rng, xs, d), R(rng, ws, d)] + ([R(rng, (ws[0],), d)] if bias else [])
            b.case('linear', '%s-%s' % (tag, dt(d)), args)
    b.error('linear', 'in-features-mismatch', [R(rng, (3, 4), 'float32'), R(rng, (5, 3), 'float32')])
    b.error('linear', 'bias-length-mismatch', [R(rng, (3, 4), 'float64'), R(rng, (5, 4), 'float64'),
                                                R(rng, (4,), 'float64')])
    # ---------------- conv1d
    conv1d = [
        ('basic-bias', (2, 3, 9), (4, 3, 3), True, {}),
        ('stride2-pad1', (2, 2, 9), (3, 2, 3), True, {'stride': 2, 'padding': 1}),
        ('list-params-dilation2', (1, 2, 9), (2, 2, 3), False, {'stride': [1], 'padding': [2], 'dilation': [2]}),
        ('groups2', (2, 4, 7), (4, 2, 3), True, {'groups': 2, 'padding': 1}),
        ('depthwise', (1, 4, 8), (4, 1, 3), False, {'groups': 4, 'stride': 2}),
    ]
    for tag, xs, ws, bias, params in conv1d:
        for d in FLOAT:
            args = [R(rng, xs, d), R(rng, ws, d)] + ([R(rng, (ws[0],), d)] if bias else [])
            b.case('conv1d', '%s-%s' % (tag, dt(d)), args, params)
    b.error('conv1d', 'in-channels-mismatch', [R(rng, (1, 3, 8), 'float32'), R(rng, (2, 2, 3), 'float32')])
    b.error('conv1d', 'kernel-larger-than-input', [R(rng, (1, 2, 3), 'float64'), R(rng, (2, 2, 5), 'float64')])
    # ---------------- conv2d
    conv2d = [
        ('basic-bias', (1, 3, 6, 6), (4, 3, 3, 3), True, {}),
        ('stride2-pad1', (2, 2, 7, 7), (3, 2, 3, 3), True, {'stride': 2, 'padding': 1}),
        ('stride-list-pad-list', (1, 2, 7, 6), (2, 2, 3, 3), False, {'stride': [2, 1], 'padding': [1, 0]}),
        ('dilation2', (1, 2, 9, 9), (2, 2, 3, 3), True, {'dilation': 2, 'padding': 2}),
        ('groups2', (1, 4, 6, 6), (4, 2, 3, 3), True, {'groups': 2}),
        ('depthwise-pad1', (2, 4, 5, 5), (4, 1, 3, 3), False, {'groups': 4, 'padding': 1}),
        ('kernel1x1', (2, 4, 3, 3), (2, 4, 1, 1), True, {}),
        ('rect-kernel-mixed', (1, 2, 8, 9), (3, 2, 2, 3), True,
         {'stride': [1, 2], 'padding': [1, 2], 'dilation': [2, 1]}),
        ('groups2-stride2-pad1-list', (2, 2, 6, 6), (4, 1, 2, 2), False,
         {'stride': [2, 2], 'padding': [1, 1], 'dilation': [1, 1], 'groups': 2}),
    ]
    for tag, xs, ws, bias, params in conv2d:
        for d in FLOAT:
            args = [R(rng, xs, d), R(rng, ws, d)] + ([R(rng, (ws[0],), d)] if bias else [])
            b.case('conv2d', '%s-%s' % (tag, dt(d)), args, params)
    b.error('conv2d', 'in-channels-mismatch', [R(rng, (1, 4, 5, 5), 'float32'), R(rng, (2, 3, 3, 3), 'float32')])
    b.error('conv2d', 'groups-not-dividing-channels', [R(rng, (1, 3, 5, 5), 'float64'),
                                                       R(rng, (2, 1, 3, 3), 'float64')], {'groups': 2})
    b.error('conv2d', 'groups-not-dividing-out-channels', [R(rng, (1, 4, 5, 5), 'float32'),
                                                           R(rng, (3, 2, 3, 3), 'float32')], {'groups': 2})
    b.error('conv2d', 'kernel-larger-than-input', [R(rng, (1, 2, 3, 3), 'float64'), R(rng, (2, 2, 5, 5), 'float64')])
    b.error('conv2d', 'kernel-larger-than-padded-input', [R(rng, (1, 2, 3, 3), 'float32'),
                                                          R(rng, (2, 2, 6, 6), 'float32')], {'padding': 1})
    b.error('conv2d', 'bias-length-mismatch', [R(rng, (1, 2, 4, 4), 'float64'), R(rng, (2, 2, 2, 2), 'float64'),
                                               R(rng, (3,), 'float64')])
    # ---------------- max_pool2d (distinct values: no ties)
    pools = [
        ('k2-default-stride', (1, 2, 6, 6), {'kernel_size': 2}),
        ('k3-stride2-pad1', (2, 2, 7, 7), {'kernel_size': 3, 'stride': 2, 'padding': 1}),
        ('k3-stride1-overlap', (1, 2, 5, 5), {'kernel_size': 3, 'stride': 1}),
        ('k-list-stride-list-pad-list', (1, 3, 6, 7), {'kernel_size': [2, 3], 'stride': [2, 1], 'padding': [1, 1]}),
    ]
    for tag, xs, params in pools:
        for d in FLOAT:
            b.case('max_pool2d', '%s-%s' % (tag, dt(d)), [R(rng, xs, d, 'distinct')], params)
    for d in FLOAT:
        x = rvals(rng, (1, 1, 4, 4), d, 'distinct')
        x[0, 0, 0, 1], x[0, 0, 2, 2], x[0, 0, 3, 0] = nan, inf, -inf
        b.case('max_pool2d', 'nan-inf-%s' % dt(d), [A(x, d)], {'kernel_size': 2})
    b.error('max_pool2d', 'kernel-larger-than-padded-input', [R(rng, (1, 2, 3, 3), 'float32')],
            {'kernel_size': 6, 'padding': 1})
    b.error('max_pool2d', 'padding-over-half-kernel', [R(rng, (1, 2, 6, 6), 'float64')],
            {'kernel_size': 2, 'padding': 2}, kind='any')
    # ---------------- avg_pool2d
    avg = [
        ('k2-default-stride', (1, 2, 6, 6), {'kernel_size': 2}),
        ('k3-stride2-pad1-include-pad', (2, 2, 7, 7), {'kernel_size': 3, 'stride': 2, 'padding': 1,
                                                        'count_include_pad': True}),
        ('k3-stride2-pad1-exclude-pad', (2, 2, 7, 7), {'kernel_size': 3, 'stride': 2, 'padding': 1,
                                                        'count_include_pad': False}),
        ('k-list-pad-list-include-pad', (1, 3, 6, 7), {'kernel_size': [3, 2], 'stride': [1, 2], 'padding': [1, 1],
                                                        'count_include_pad': True}),
        ('k-list-pad-list-exclude-pad', (1, 3, 6, 7), {'kernel_size': [3, 2], 'stride': [1, 2], 'padding': [1, 1],
                                                        'count_include_pad': False}),
        ('k3-stride1-pad1-default-count', (1, 2, 5, 5), {'kernel_size': 3, 'stride': 1, 'padding': 1}),
    ]
    for tag, xs, params in avg:
        for d in FLOAT:
            b.case('avg_pool2d', '%s-%s' % (tag, dt(d)), [R(rng, xs, d)], params)
    b.error('avg_pool2d', 'kernel-larger-than-padded-input', [R(rng, (1, 2, 3, 3), 'float32')], {'kernel_size': 5})
    # ---------------- batch_norm
    bns = [
        ('2d-training', (4, 3), {'training': True, 'momentum': 0.1, 'eps': 1e-5}),
        ('2d-eval', (4, 3), {'training': False, 'momentum': 0.1, 'eps': 1e-5}),
        ('4d-training', (2, 3, 3, 3), {'training': True, 'momentum': 0.5, 'eps': 1e-3}),
        ('4d-eval', (2, 3, 3, 3), {'training': False, 'momentum': 0.5, 'eps': 1e-3}),
        ('4d-default-params', (2, 2, 2, 3), {}),
    ]
    for tag, xs, params in bns:
        for d in FLOAT:
            c = xs[1]
            args = [R(rng, xs, d), R(rng, (c,), d), R(rng, (c,), d, 'pos'), R(rng, (c,), d), R(rng, (c,), d)]
            b.case('batch_norm', '%s-%s' % (tag, dt(d)), args, params)
    b.error('batch_norm', 'training-one-value-per-channel',
            [R(rng, (1, 3), 'float32'), R(rng, (3,), 'float32'), R(rng, (3,), 'float32', 'pos'),
             R(rng, (3,), 'float32'), R(rng, (3,), 'float32')], {'training': True})
    b.error('batch_norm', 'running-mean-length-mismatch',
            [R(rng, (4, 3), 'float64'), R(rng, (2,), 'float64'), R(rng, (2,), 'float64', 'pos'),
             R(rng, (3,), 'float64'), R(rng, (3,), 'float64')], {'training': False})
    b.error('batch_norm', 'weight-length-mismatch',
            [R(rng, (4, 3), 'float32'), R(rng, (3,), 'float32'), R(rng, (3,), 'float32', 'pos'),
             R(rng, (2,), 'float32'), R(rng, (3,), 'float32')], {'training': False})
    # ---------------- embedding
    for tag, idx, ws in (('vector-repeated', [1, 4, 1, 0, 5, 1], (6, 3)),
                         ('batch-time', [[0, 3, 3], [2, 1, 0]], (4, 5)),
                         ('scalar-index', 2, (3, 4))):
        for d in FLOAT:
            b.case('embedding', '%s-%s' % (tag, dt(d)), [I(idx), R(rng, ws, d)])
    b.error('embedding', 'weight-1d', [I([0, 1]), R(rng, (6,), 'float32')])
    b.error('embedding', 'weight-3d', [I([0, 1]), R(rng, (6, 2, 3), 'float64')])
    b.error('embedding', 'index-out-of-range', [I([0, 6]), R(rng, (6, 2), 'float32')], kind='any')
    # ---------------- scaled_dot_product_attention
    sdpa = [
        ('bhle-self', (2, 2, 3, 4), 3, 4, None, {}),
        ('bhle-cross-s5', (2, 2, 3, 4), 5, 4, None, {}),
        ('ble-causal', (2, 4, 4), 4, 4, None, {'is_causal': True}),
        ('bhle-causal-scale', (1, 2, 4, 3), 4, 3, None, {'is_causal': True, 'scale': 0.3}),
        ('bhle-mask-full-cross', (2, 2, 3, 4), 5, 4, 'full', {}),
        ('ble-mask-broadcast-scale', (2, 3, 4), 3, 4, 'bcast', {'scale': 0.5}),
        ('ble-value-dim-differs', (2, 3, 4), 5, 2, None, {'is_causal': False}),
    ]
    for tag, qs, s, ev, mask, params in sdpa:
        for d in FLOAT:
            ks = qs[:-2] + (s, qs[-1])
            vs = qs[:-2] + (s, ev)
            args = [R(rng, qs, d), R(rng, ks, d), R(rng, vs, d)]
            if mask is not None:
                mshape = qs[:-2] + (qs[-2], s) if mask == 'full' else (qs[-2], s)
                m = rng.integers(0, 2, size=mshape)
                m[..., 0] = 1  # every query attends to something
                args.append(B(m))
            b.case('scaled_dot_product_attention', '%s-%s' % (tag, dt(d)), args, params)
    for d in FLOAT:
        q = rvals(rng, (1, 3, 4), d) * 30
        b.case('scaled_dot_product_attention', 'stability-large-scores-%s' % dt(d),
               [A(q, d), R(rng, (1, 3, 4), d), R(rng, (1, 3, 4), d)])
    b.error('scaled_dot_product_attention', 'head-dim-mismatch',
            [R(rng, (1, 3, 4), 'float32'), R(rng, (1, 3, 5), 'float32'), R(rng, (1, 3, 4), 'float32')])
    b.error('scaled_dot_product_attention', 'key-value-length-mismatch',
            [R(rng, (1, 3, 4), 'float64'), R(rng, (1, 5, 4), 'float64'), R(rng, (1, 4, 4), 'float64')])
    b.error('scaled_dot_product_attention', 'mask-shape-mismatch',
            [R(rng, (1, 3, 4), 'float32'), R(rng, (1, 5, 4), 'float32'), R(rng, (1, 5, 4), 'float32'),
             B(np.ones((3, 4)))])
    b.error('scaled_dot_product_attention', 'mask-with-is-causal',
            [R(rng, (1, 3, 4), 'float64'), R(rng, (1, 3, 4), 'float64'), R(rng, (1, 3, 4), 'float64'),
             B(np.ones((3, 3)))], {'is_causal': True}, kind='any')
    gen_layers_more(b, rng)
    return b


def _layer_args(rng, d, xs, ws, bias, kind='normal'):
    return [R(rng, xs, d, kind), R(rng, ws, d)] + ([R(rng, (ws[0],), d)] if bias else [])


def gen_layers_more(b, rng):
    """Broader layer coverage: padding modes, odd strides and dilations, groups, unbatched
    inputs, pooling ties and special values, optional batch_norm inputs, attention masks and
    broadcasting.  Appended after the cases of gen_layers, so those keep their random values."""
    # ---------------- linear: 1-d input, 4-d input, zero-size batch
    for tag, xs, ws, bias in (('vector-input-bias', (4,), (3, 4), True),
                              ('vector-input-no-bias', (5,), (2, 5), False),
                              ('rank4-bias', (2, 1, 3, 4), (2, 4), True),
                              ('zero-batch-bias', (0, 4), (3, 4), True),
                              ('zero-batch-no-bias', (2, 0, 3), (2, 3), False)):
        for d in FLOAT:
            b.case('linear', '%s-%s' % (tag, dt(d)), _layer_args(rng, d, xs, ws, bias))
    b.error('linear', 'vector-input-mismatch', [R(rng, (4,), 'float64'), R(rng, (3, 5), 'float64')])
    b.error('linear', 'weight-3d', [R(rng, (2, 4), 'float32'), R(rng, (2, 3, 4), 'float32')])
    # ---------------- conv1d: padding 'same' (odd / even kernels, dilation; PyTorch puts the odd
    # zero after) and 'valid', strides that do not divide L - span, large dilation, groups with
    # stride + dilation + padding, depthwise with a channel multiplier, one channel, batch 1 / 3,
    # unbatched [C, L], a kernel as long as the padded input (output length 1), list params
    conv1d = [
        ('same-odd-k3', (2, 2, 7), (3, 2, 3), True, {'padding': 'same'}),
        ('same-even-k4', (2, 2, 7), (3, 2, 4), True, {'padding': 'same'}),
        ('same-even-k2-dilation3', (1, 3, 8), (2, 3, 2), False, {'padding': 'same', 'dilation': 3}),
        ('same-k3-dilation2-groups3', (2, 3, 6), (3, 1, 3), True, {'padding': 'same', 'dilation': 2, 'groups': 3}),
        ('same-k1', (1, 2, 5), (3, 2, 1), True, {'padding': 'same'}),
        ('valid', (2, 2, 8), (3, 2, 3), True, {'padding': 'valid'}),
        ('stride3-not-dividing', (2, 2, 10), (2, 2, 3), True, {'stride': 3}),
        ('stride4-pad1-not-dividing', (1, 2, 11), (3, 2, 2), False, {'stride': 4, 'padding': 1}),
        ('dilation5', (1, 2, 12), (2, 2, 3), True, {'dilation': 5}),
        ('groups2-stride2-dilation2-pad2', (2, 4, 9), (6, 2, 3), True,
         {'groups': 2, 'stride': 2, 'dilation': 2, 'padding': 2}),
        ('depthwise-multiplier2', (2, 3, 7), (6, 1, 3), True, {'groups': 3, 'padding': 1}),
        ('one-channel', (2, 1, 8), (1, 1, 3), True, {}),
        ('batch3', (3, 2, 6), (2, 2, 2), True, {'stride': 2}),
        ('unbatched', (2, 9), (3, 2, 3), True, {'stride': 2, 'padding': 1}),
        ('unbatched-same-even-k2', (3, 6), (2, 3, 2), False, {'padding': 'same'}),
        ('kernel-equals-padded-input', (2, 2, 5), (3, 2, 7), True, {'padding': 1}),
        ('list-params-groups2', (1, 4, 10), (2, 2, 3), True, {'stride': [2], 'padding': [1], 'dilation': [2],
                                                              'groups': 2}),
    ]
    for tag, xs, ws, bias, params in conv1d:
        for d in FLOAT:
            b.case('conv1d', '%s-%s' % (tag, dt(d)), _layer_args(rng, d, xs, ws, bias), params)
    b.error('conv1d', 'groups-not-dividing-channels', [R(rng, (1, 3, 8), 'float64'), R(rng, (2, 1, 3), 'float64')],
            {'groups': 2})
    b.error('conv1d', 'weight-2d', [R(rng, (1, 2, 8), 'float32'), R(rng, (2, 3), 'float32')])
    b.error('conv1d', 'input-4d', [R(rng, (1, 2, 5, 5), 'float64'), R(rng, (2, 2, 3), 'float64')])
    b.error('conv1d', 'bias-length-mismatch', [R(rng, (1, 2, 8), 'float32'), R(rng, (3, 2, 3), 'float32'),
                                               R(rng, (2,), 'float32')])
    b.error('conv1d', 'unbatched-in-channels-mismatch', [R(rng, (3, 8), 'float64'), R(rng, (2, 2, 3), 'float64')])
    b.error('conv1d', 'stride-zero', [R(rng, (1, 2, 8), 'float32'), R(rng, (2, 2, 3), 'float32')], {'stride': 0},
            kind='any')
    b.error('conv1d', 'negative-padding', [R(rng, (1, 2, 8), 'float64'), R(rng, (2, 2, 3), 'float64')],
            {'padding': -1}, kind='any')
    b.error('conv1d', 'same-with-stride2', [R(rng, (1, 2, 8), 'float32'), R(rng, (2, 2, 3), 'float32')],
            {'padding': 'same', 'stride': 2}, kind='any')
    b.error('conv1d', 'dilation-zero', [R(rng, (1, 2, 8), 'float64'), R(rng, (2, 2, 3), 'float64')],
            {'dilation': 0}, kind='any')
    b.error('conv1d', 'groups-zero', [R(rng, (1, 2, 8), 'float32'), R(rng, (2, 2, 3), 'float32')],
            {'groups': 0}, kind='any')
    # ---------------- conv2d: the same themes in two dims, rectangular inputs and kernels
    conv2d = [
        ('same-k3', (1, 2, 5, 6), (3, 2, 3, 3), True, {'padding': 'same'}),
        ('same-even-k2x4', (2, 2, 5, 6), (2, 2, 2, 4), True, {'padding': 'same'}),
        ('same-k3x2-dilation2x3', (1, 2, 7, 6), (2, 2, 3, 2), False, {'padding': 'same', 'dilation': [2, 3]}),
        ('valid-rect', (1, 3, 5, 7), (2, 3, 2, 3), True, {'padding': 'valid'}),
        ('stride3-not-dividing', (2, 2, 8, 9), (2, 2, 3, 3), True, {'stride': 3}),
        ('stride-list-not-dividing-pad', (1, 2, 9, 8), (3, 2, 2, 3), False, {'stride': [4, 3], 'padding': [1, 0]}),
        ('dilation4x5', (1, 2, 11, 12), (2, 2, 3, 3), True, {'dilation': [4, 5]}),
        ('groups2-stride2-dilation2-pad2', (1, 4, 8, 7), (4, 2, 3, 2), True,
         {'groups': 2, 'stride': 2, 'dilation': 2, 'padding': 2}),
        ('depthwise-multiplier2', (2, 2, 5, 5), (4, 1, 3, 3), True, {'groups': 2, 'padding': [1, 0]}),
        ('one-channel-batch3', (3, 1, 5, 6), (2, 1, 2, 2), True, {}),
        ('unbatched', (2, 6, 5), (3, 2, 3, 3), True, {'padding': 1, 'stride': [2, 1]}),
        ('unbatched-same-even-k2', (2, 4, 5), (2, 2, 2, 2), False, {'padding': 'same'}),
        ('rect-input-rect-kernel', (1, 2, 4, 9), (2, 2, 2, 5), True, {'stride': [1, 2]}),
        ('kernel-equals-padded-input', (2, 2, 4, 5), (3, 2, 6, 5), True, {'padding': [1, 0]}),
    ]
    for tag, xs, ws, bias, params in conv2d:
        for d in FLOAT:
            b.case('conv2d', '%s-%s' % (tag, dt(d)), _layer_args(rng, d, xs, ws, bias), params)
    b.error('conv2d', 'weight-3d', [R(rng, (1, 2, 5, 5), 'float64'), R(rng, (2, 2, 3), 'float64')])
    b.error('conv2d', 'input-2d', [R(rng, (5, 5), 'float32'), R(rng, (2, 1, 3, 3), 'float32')])
    b.error('conv2d', 'unbatched-in-channels-mismatch', [R(rng, (3, 5, 5), 'float64'),
                                                         R(rng, (2, 2, 3, 3), 'float64')])
    b.error('conv2d', 'unbatched-kernel-larger-than-input', [R(rng, (2, 3, 5), 'float32'),
                                                             R(rng, (2, 2, 4, 3), 'float32')])
    b.error('conv2d', 'stride-zero', [R(rng, (1, 2, 5, 5), 'float64'), R(rng, (2, 2, 3, 3), 'float64')],
            {'stride': [1, 0]}, kind='any')
    b.error('conv2d', 'negative-padding', [R(rng, (1, 2, 5, 5), 'float32'), R(rng, (2, 2, 3, 3), 'float32')],
            {'padding': [0, -1]}, kind='any')
    b.error('conv2d', 'same-with-stride2', [R(rng, (1, 2, 6, 6), 'float64'), R(rng, (2, 2, 3, 3), 'float64')],
            {'padding': 'same', 'stride': 2}, kind='any')
    # ---------------- max_pool2d: ties with gradients (integer values, windows of equal values,
    # all-equal windows, the zeros of relu-like inputs; PyTorch sends a tie's gradient to the
    # first maximum of the window in row-major order), dilation, -inf padding under negative
    # inputs, NaN / +-inf, stride > kernel, overlapping windows, unbatched [C, H, W]
    for d in FLOAT:
        x = rng.integers(-2, 3, size=(2, 2, 6, 6)).astype(np.float64)
        b.case('max_pool2d', 'ties-integer-k2-%s' % dt(d), [A(x, d)], {'kernel_size': 2})
        x = rng.integers(-1, 2, size=(1, 2, 5, 5)).astype(np.float64)
        b.case('max_pool2d', 'ties-integer-k3-stride1-pad1-%s' % dt(d), [A(x, d)],
               {'kernel_size': 3, 'stride': 1, 'padding': 1})
        x = np.kron(rng.integers(-3, 4, size=(1, 2, 3, 2)), np.ones((2, 3))).astype(np.float64)
        b.case('max_pool2d', 'ties-all-equal-windows-%s' % dt(d), [A(x, d)], {'kernel_size': [2, 3]})
        b.case('max_pool2d', 'ties-constant-overlap-%s' % dt(d), [A(np.full((1, 1, 4, 5), 1.5), d)],
               {'kernel_size': 2, 'stride': 1})
        x = np.maximum(rvals(rng, (2, 2, 6, 6), d), 0.0)
        b.case('max_pool2d', 'ties-relu-zeros-overlap-%s' % dt(d), [A(x, d)], {'kernel_size': 3, 'stride': 1})
        x = np.maximum(rvals(rng, (2, 5, 5), d), 0.0)
        b.case('max_pool2d', 'ties-relu-zeros-unbatched-pad1-%s' % dt(d), [A(x, d)],
               {'kernel_size': 2, 'stride': 2, 'padding': 1})
    pools = [
        ('dilation2', (1, 2, 7, 7), {'kernel_size': 3, 'stride': 1, 'dilation': 2}),
        ('dilation-list-stride2-pad1', (2, 1, 8, 9), {'kernel_size': [2, 3], 'stride': 2, 'padding': 1,
                                                      'dilation': [3, 2]}),
        ('stride3-gt-kernel2', (1, 2, 8, 8), {'kernel_size': 2, 'stride': 3}),
        ('stride-list-gt-kernel', (1, 2, 7, 9), {'kernel_size': [2, 1], 'stride': [3, 4], 'padding': [1, 0]}),
        ('k2-stride1-overlap', (2, 2, 4, 5), {'kernel_size': 2, 'stride': 1}),
        ('unbatched-k3-stride2-pad1', (3, 7, 6), {'kernel_size': 3, 'stride': 2, 'padding': 1}),
        ('unbatched-k2-dilation2', (2, 6, 6), {'kernel_size': 2, 'dilation': 2}),
    ]
    for tag, xs, params in pools:
        for d in FLOAT:
            b.case('max_pool2d', '%s-%s' % (tag, dt(d)), [R(rng, xs, d, 'distinct')], params)
    for d in FLOAT:
        # all inputs negative: the padding must count as -inf, not 0
        x = -np.abs(rvals(rng, (1, 2, 5, 5), d, 'distinct')) - 0.5
        b.case('max_pool2d', 'negative-inputs-pad1-%s' % dt(d), [A(x, d)], {'kernel_size': 3, 'stride': 2,
                                                                           'padding': 1})
        x = -np.abs(rvals(rng, (2, 4, 5), d, 'distinct')) - 0.5
        b.case('max_pool2d', 'negative-inputs-unbatched-pad-list-%s' % dt(d), [A(x, d)],
               {'kernel_size': [2, 3], 'stride': 1, 'padding': [1, 1]})
        # NaN wins its windows (also overlapping ones), +inf wins, a window of -inf gives -inf
        x = rvals(rng, (1, 1, 5, 5), d, 'distinct')
        x[0, 0, 1, 1], x[0, 0, 3, 4], x[0, 0, 4, 0] = nan, inf, -inf
        x[0, 0, 0, 3] = x[0, 0, 0, 4] = -inf
        b.case('max_pool2d', 'nan-inf-overlap-pad1-%s' % dt(d), [A(x, d)], {'kernel_size': 2, 'stride': 1,
                                                                           'padding': 1})
        x = np.full((2, 4, 4), -inf)
        x[0, 1, 2], x[1, 0, 0], x[1, 3, 3] = 0.5, nan, inf
        b.case('max_pool2d', 'neg-inf-windows-unbatched-%s' % dt(d), [A(x, d)], {'kernel_size': 2})
    b.error('max_pool2d', 'padding-over-half-kernel-list', [R(rng, (1, 2, 6, 6), 'float32')],
            {'kernel_size': [2, 4], 'padding': [1, 3]}, kind='any')
    b.error('max_pool2d', 'stride-zero', [R(rng, (1, 2, 6, 6), 'float64')], {'kernel_size': 2, 'stride': 0},
            kind='any')
    b.error('max_pool2d', 'dilation-zero', [R(rng, (1, 2, 6, 6), 'float32')], {'kernel_size': 2, 'dilation': 0},
            kind='any')
    b.error('max_pool2d', 'negative-padding', [R(rng, (1, 2, 6, 6), 'float64')], {'kernel_size': 2, 'padding': -1},
            kind='any')
    b.error('max_pool2d', 'unbatched-dilated-kernel-larger-than-input', [R(rng, (2, 4, 4), 'float32')],
            {'kernel_size': 3, 'dilation': 2})
    b.error('max_pool2d', 'input-2d', [R(rng, (5, 5), 'float64')], {'kernel_size': 2})
    # ---------------- avg_pool2d: divisor_override, count_include_pad with asymmetric kernel /
    # stride / padding, stride > kernel, unbatched [C, H, W]
    avg = [
        ('divisor-override5-pad1', (1, 2, 7, 7), {'kernel_size': 3, 'stride': 2, 'padding': 1,
                                                  'divisor_override': 5}),
        ('divisor-override3-no-pad', (2, 1, 6, 6), {'kernel_size': 2, 'divisor_override': 3}),
        ('divisor-override-exclude-pad', (1, 2, 5, 6), {'kernel_size': [2, 3], 'stride': [1, 2], 'padding': [1, 1],
                                                        'count_include_pad': False, 'divisor_override': 2}),
        ('asym-include-pad', (2, 2, 7, 8), {'kernel_size': [2, 4], 'stride': [3, 1], 'padding': [1, 2],
                                            'count_include_pad': True}),
        ('asym-exclude-pad', (2, 2, 7, 8), {'kernel_size': [2, 4], 'stride': [3, 1], 'padding': [1, 2],
                                            'count_include_pad': False}),
        ('asym-pad-one-side-exclude-pad', (1, 1, 6, 7), {'kernel_size': [3, 2], 'stride': [2, 3], 'padding': [0, 1],
                                                         'count_include_pad': False}),
        ('stride3-gt-kernel2', (1, 2, 8, 8), {'kernel_size': 2, 'stride': 3}),
        ('stride-gt-kernel-pad-exclude-pad', (1, 2, 7, 7), {'kernel_size': 2, 'stride': 4, 'padding': 1,
                                                            'count_include_pad': False}),
        ('unbatched-k3-stride2-pad1-include-pad', (2, 7, 6), {'kernel_size': 3, 'stride': 2, 'padding': 1}),
        ('unbatched-k3-stride2-pad1-exclude-pad', (2, 7, 6), {'kernel_size': 3, 'stride': 2, 'padding': 1,
                                                              'count_include_pad': False}),
        ('unbatched-divisor-override', (3, 4, 4), {'kernel_size': 2, 'stride': 1, 'divisor_override': 7}),
    ]
    for tag, xs, params in avg:
        for d in FLOAT:
            b.case('avg_pool2d', '%s-%s' % (tag, dt(d)), [R(rng, xs, d)], params)
    b.error('avg_pool2d', 'padding-over-half-kernel', [R(rng, (1, 2, 6, 6), 'float64')],
            {'kernel_size': 3, 'padding': 2}, kind='any')
    b.error('avg_pool2d', 'divisor-override-zero', [R(rng, (1, 2, 6, 6), 'float32')],
            {'kernel_size': 2, 'divisor_override': 0}, kind='any')
    b.error('avg_pool2d', 'stride-zero', [R(rng, (1, 2, 6, 6), 'float64')], {'kernel_size': 2, 'stride': 0},
            kind='any')
    b.error('avg_pool2d', 'unbatched-kernel-larger-than-input', [R(rng, (2, 3, 5), 'float32')],
            {'kernel_size': [4, 2]})
    # ---------------- batch_norm: [N, C, L], [N, C, H, W], [N, C, D, H, W]; momentum 0 / 1 / 0.3
    # (only the output is compared, running statistics are not); eval with extreme running_var;
    # eps variants; values offset by 1e4 (a stable variance); batch statistics only (x alone),
    # no affine (x and running statistics), no bias
    bns = [
        ('3d-training', (3, 2, 4), {'training': True, 'momentum': 0.1, 'eps': 1e-5}),
        ('3d-eval', (3, 2, 4), {'training': False}),
        ('5d-training', (2, 2, 2, 3, 2), {'training': True, 'momentum': 0.1}),
        ('5d-eval', (2, 2, 2, 3, 2), {'training': False, 'eps': 1e-3}),
        ('momentum0-training', (4, 3), {'training': True, 'momentum': 0.0}),
        ('momentum1-training', (2, 3, 2, 2), {'training': True, 'momentum': 1.0}),
        ('momentum0p3-training', (3, 2, 5), {'training': True, 'momentum': 0.3}),
        ('eps0p1-training', (2, 3, 3), {'training': True, 'eps': 0.1}),
        ('eps1e-9-training', (5, 2), {'training': True, 'eps': 1e-9}),
        ('eps0p5-eval', (2, 3, 3), {'training': False, 'eps': 0.5}),
    ]
    for tag, xs, params in bns:
        for d in FLOAT:
            c = xs[1]
            args = [R(rng, xs, d), R(rng, (c,), d), R(rng, (c,), d, 'pos'), R(rng, (c,), d), R(rng, (c,), d)]
            b.case('batch_norm', '%s-%s' % (tag, dt(d)), args, params)
    for d in FLOAT:
        rv = np.array([1e-6, 1e6, 0.0, 1e-30])  # with eps 1e-5: tiny, huge, zero, below eps
        args = [R(rng, (3, 4, 2), d), R(rng, (4,), d), A(rv, d), R(rng, (4,), d), R(rng, (4,), d)]
        b.case('batch_norm', 'eval-extreme-running-var-%s' % dt(d), args, {'training': False})
        # mean 1e4, spread 10: E[x^2] - E[x]^2 loses the variance (float32: entirely); a two-pass or
        # Welford variance keeps it.  (A spread of 1 leaves float32 inputs with ~3 significant digits
        # of deviation: even torch's float32 result is then off by more than the loosest step.)
        x = rvals(rng, (4, 2, 3), d) * 10 + 1e4
        args = [A(x, d), R(rng, (2,), d), R(rng, (2,), d, 'pos'), R(rng, (2,), d), R(rng, (2,), d)]
        b.case('batch_norm', 'stability-offset-1e4-training-%s' % dt(d), args, {'training': True})
        x = rvals(rng, (6, 3), d) * 10 + 1e4
        b.case('batch_norm', 'stability-offset-1e4-batch-stats-only-%s' % dt(d), [A(x, d)], {'training': True})
        b.case('batch_norm', 'batch-stats-only-2d-%s' % dt(d), [R(rng, (5, 3), d)], {'training': True})
        b.case('batch_norm', 'batch-stats-only-4d-%s' % dt(d), [R(rng, (2, 2, 3, 3), d)],
               {'training': True, 'eps': 1e-3})
        c = 3
        stats = [R(rng, (c,), d), R(rng, (c,), d, 'pos')]
        b.case('batch_norm', 'no-affine-training-%s' % dt(d), [R(rng, (2, c, 4), d)] + stats, {'training': True})
        stats = [R(rng, (c,), d), R(rng, (c,), d, 'pos')]
        b.case('batch_norm', 'no-affine-eval-%s' % dt(d), [R(rng, (2, c, 2, 2), d)] + stats, {'training': False})
        stats = [R(rng, (c,), d), R(rng, (c,), d, 'pos'), R(rng, (c,), d)]
        b.case('batch_norm', 'no-bias-training-%s' % dt(d), [R(rng, (4, c), d)] + stats, {'training': True})
        stats = [R(rng, (c,), d), R(rng, (c,), d, 'pos'), R(rng, (c,), d)]
        b.case('batch_norm', 'no-bias-eval-%s' % dt(d), [R(rng, (2, c, 3), d)] + stats, {'training': False})
    b.error('batch_norm', 'training-one-value-per-channel-3d',
            [R(rng, (1, 3, 1), 'float64'), R(rng, (3,), 'float64'), R(rng, (3,), 'float64', 'pos'),
             R(rng, (3,), 'float64'), R(rng, (3,), 'float64')], {'training': True})
    b.error('batch_norm', 'batch-stats-only-one-value-per-channel', [R(rng, (1, 4), 'float32')],
            {'training': True})
    b.error('batch_norm', 'running-var-length-mismatch',
            [R(rng, (4, 3, 2), 'float32'), R(rng, (3,), 'float32'), R(rng, (2,), 'float32', 'pos')],
            {'training': True})
    b.error('batch_norm', 'bias-length-mismatch',
            [R(rng, (4, 3), 'float64'), R(rng, (3,), 'float64'), R(rng, (3,), 'float64', 'pos'),
             R(rng, (3,), 'float64'), R(rng, (4,), 'float64')], {'training': True})
    b.error('batch_norm', 'input-1d', [R(rng, (5,), 'float32')], {'training': True})
    # ---------------- embedding: one index repeated, a one-row weight, the first and last rows,
    # 3-d and zero-size index tensors; errors: negative and float indices
    for tag, idx, ws in (('same-index-repeated', [2, 2, 2, 2], (3, 2)),
                         ('weight-one-row', [[0, 0], [0, 0], [0, 0]], (1, 4)),
                         ('first-and-last-row', [6, 0, 6, 0, 3], (7, 3)),
                         ('index-3d', [[[0, 4], [3, 3]], [[1, 0], [4, 2]], [[2, 2], [0, 1]]], (5, 2)),
                         ('zero-size-index', np.zeros((0, 3)), (4, 2))):
        for d in FLOAT:
            b.case('embedding', '%s-%s' % (tag, dt(d)), [I(idx), R(rng, ws, d)])
    b.error('embedding', 'negative-index', [I([0, -1, 2]), R(rng, (4, 2), 'float64')], kind='any')
    b.error('embedding', 'float-indices', [A([0.0, 1.0], 'float32'), R(rng, (4, 2), 'float32')], kind='any')
    b.error('embedding', 'index-out-of-range-3d', [I([[[0, 1], [5, 2]]]), R(rng, (5, 3), 'float64')], kind='any')
    # ---------------- scaled_dot_product_attention: float additive masks (finite ones carry a
    # gradient of their own; -inf entries make a case without grad), bool masks broadcast from
    # [L, S] and [1, 1, L, S], query rows whose keys are all masked (PyTorch 2.13 gives zeros
    # there), is_causal with L != S (top-left aligned: query i sees keys 0..i), batch dims that
    # broadcast, Ev != E, scale, large scores, a single key, unbatched [L, E]
    sdpa = [
        # tag, q shape, k shape, v shape, mask, params
        ('float-mask-full-4d', (2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4), 'float-full', {}),
        ('float-mask-ls-broadcast', (2, 2, 3, 4), (2, 2, 4, 4), (2, 2, 4, 3), 'float-ls', {'scale': 0.7}),
        ('float-mask-large-negative', (2, 3, 4), (2, 5, 4), (2, 5, 2), 'float-big-neg', {}),
        ('bool-mask-ls-broadcast-4d', (2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3), 'bool-ls', {}),
        ('bool-mask-11ls-broadcast', (2, 3, 4, 3), (2, 3, 4, 3), (2, 3, 4, 3), 'bool-11ls', {}),
        ('bool-mask-b1ls-broadcast', (2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4), 'bool-b1ls', {'scale': 0.4}),
        ('causal-l3-s5', (2, 3, 4), (2, 5, 4), (2, 5, 4), None, {'is_causal': True}),
        ('causal-l5-s3', (1, 2, 5, 4), (1, 2, 3, 4), (1, 2, 3, 2), None, {'is_causal': True}),
        ('causal-l4-s1', (2, 4, 3), (2, 1, 3), (2, 1, 3), None, {'is_causal': True}),
        ('batch-broadcast-2x1-1x3', (2, 1, 3, 4), (1, 3, 5, 4), (1, 3, 5, 2), None, {}),
        ('batch-broadcast-rank4-rank3', (2, 3, 3, 4), (3, 4, 4), (3, 4, 4), None, {}),
        ('batch-broadcast-causal', (1, 2, 4, 3), (3, 1, 4, 3), (3, 1, 4, 2), None, {'is_causal': True}),
        ('value-dim-differs-4d-scale', (1, 2, 3, 4), (1, 2, 4, 4), (1, 2, 4, 6), None, {'scale': 0.25}),
        ('scale-2', (2, 3, 4), (2, 3, 4), (2, 3, 4), None, {'scale': 2.0}),
        ('single-key', (2, 2, 3, 4), (2, 2, 1, 4), (2, 2, 1, 3), None, {}),
        ('unbatched-2d', (3, 4), (5, 4), (5, 2), None, {}),
        ('unbatched-2d-bool-mask', (4, 3), (4, 3), (4, 3), 'bool-ls', {}),
    ]
    for tag, qs, ks, vs, mask, params in sdpa:
        for d in FLOAT:
            args = [R(rng, qs, d), R(rng, ks, d), R(rng, vs, d)]
            L, S = qs[-2], ks[-2]
            if mask is not None:
                kind, mshape = mask.split('-', 1)
                shape = {'full': qs[:-2] + (L, S), 'ls': (L, S), 'big-neg': (L, S), '11ls': (1, 1, L, S),
                         'b1ls': (qs[0], 1, L, S)}[mshape]
                keep = rng.integers(0, 2, size=shape)
                keep[..., 0] = 1  # every query attends to something
                if kind == 'bool':
                    args.append(B(keep))
                else:
                    m = rvals(rng, shape, d)
                    if mshape == 'big-neg':
                        m = np.where(keep == 1, m, -1e4)
                    args.append(A(m, d))
            b.case('scaled_dot_product_attention', '%s-%s' % (tag, dt(d)), args, params)
    for d in FLOAT:
        # -inf in a float mask: values only (an input that is not finite has no grad)
        m = rvals(rng, (3, 5), d)
        m[0, 1], m[1, 0], m[1, 4], m[2, 2] = -inf, -inf, -inf, -inf
        b.case('scaled_dot_product_attention', 'float-mask-neg-inf-%s' % dt(d),
               [R(rng, (2, 3, 4), d), R(rng, (2, 5, 4), d), R(rng, (2, 5, 3), d), A(m, d)])
        # query rows whose keys are all masked: zeros in the output, zero gradients from them
        keep = rng.integers(0, 2, size=(2, 1, 4, 5))
        keep[..., 0] = 1
        keep[0, 0, 1, :] = 0
        keep[1, 0, 3, :] = 0
        b.case('scaled_dot_product_attention', 'bool-mask-fully-masked-rows-%s' % dt(d),
               [R(rng, (2, 2, 4, 3), d), R(rng, (2, 2, 5, 3), d), R(rng, (2, 2, 5, 3), d), B(keep)])
        keep = np.ones((3, 4))
        keep[2, :] = 0
        b.case('scaled_dot_product_attention', 'bool-mask-fully-masked-row-ls-%s' % dt(d),
               [R(rng, (3, 2), d), R(rng, (4, 2), d), R(rng, (4, 3), d), B(keep)])
        m = rvals(rng, (3, 4), d)
        m[1, :] = -inf
        b.case('scaled_dot_product_attention', 'float-mask-fully-neg-inf-row-%s' % dt(d),
               [R(rng, (1, 3, 2), d), R(rng, (1, 4, 2), d), R(rng, (1, 4, 2), d), A(m, d)])
        # large scores: a stable softmax (in scores and through a large scale)
        q = rvals(rng, (2, 2, 3, 4), d) * 30
        keep = rng.integers(0, 2, size=(3, 4))
        keep[:, 0] = 1
        b.case('scaled_dot_product_attention', 'stability-large-scores-bool-mask-%s' % dt(d),
               [A(q, d), R(rng, (2, 2, 4, 4), d), R(rng, (2, 2, 4, 4), d), B(keep)])
        b.case('scaled_dot_product_attention', 'stability-large-scale-causal-%s' % dt(d),
               [R(rng, (1, 4, 3), d), R(rng, (1, 4, 3), d), R(rng, (1, 4, 3), d)], {'is_causal': True, 'scale': 50.0})
    b.error('scaled_dot_product_attention', 'mask-not-broadcasting-4d',
            [R(rng, (2, 2, 3, 4), 'float64'), R(rng, (2, 2, 5, 4), 'float64'), R(rng, (2, 2, 5, 4), 'float64'),
             B(np.ones((2, 3, 3, 5)))])
    b.error('scaled_dot_product_attention', 'float-mask-shape-mismatch',
            [R(rng, (1, 3, 4), 'float32'), R(rng, (1, 5, 4), 'float32'), R(rng, (1, 5, 4), 'float32'),
             R(rng, (3, 4), 'float32')])
    b.error('scaled_dot_product_attention', 'query-key-feature-mismatch-4d',
            [R(rng, (2, 2, 3, 4), 'float32'), R(rng, (2, 2, 5, 3), 'float32'), R(rng, (2, 2, 5, 4), 'float32')])
    b.error('scaled_dot_product_attention', 'batch-not-broadcasting',
            [R(rng, (2, 3, 4), 'float64'), R(rng, (3, 5, 4), 'float64'), R(rng, (3, 5, 2), 'float64')])
    b.error('scaled_dot_product_attention', 'float-mask-with-is-causal',
            [R(rng, (1, 3, 4), 'float32'), R(rng, (1, 3, 4), 'float32'), R(rng, (1, 3, 4), 'float32'),
             R(rng, (3, 3), 'float32')], {'is_causal': True}, kind='any')


# ----------------------------------------------------------------- writing

def gen_model_layers(rng):
    return ML.gen(Builder(rng, 'model'), rng, sys.modules[__name__])


def gen_indexing(rng):
    return IX.gen(Builder(rng, 'indexing'), rng, sys.modules[__name__])


FILES = [
    ('functions.json', 'functions', gen_functions),
    ('layers.json', 'layers', gen_layers),
    ('model_layers.json', 'model_layers', gen_model_layers),
    ('indexing.json', 'indexing', gen_indexing),
]


def dump_fixture(path, cases):
    lines = ['{',
             '  "format": %s,' % json.dumps(FORMAT),
             '  "generator": %s,' % json.dumps(generator_string()),
             '  "cases": [']
    body = [json.dumps(c, ensure_ascii=True, allow_nan=False, separators=(', ', ': ')) for c in cases]
    lines.append(',\n'.join('    ' + x for x in body))
    lines.append('  ]')
    lines.append('}')
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=FIXTURES_DIR, help='output folder (default: %(default)s)')
    ap.add_argument('--no-check', action='store_true', help='skip running check_functions.py afterwards')
    ap.add_argument('--only', nargs='+', metavar='FILE', choices=[f for f, _, _ in FILES],
                    help='write (and check) only these files; the others keep their bytes (float64 last digits of '
                         'matrix products differ between machines)')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    paths = []
    for fname, key, gen in FILES:
        if args.only and fname not in args.only:
            continue
        rng = np.random.default_rng(SEEDS[key])
        b = gen(rng)
        path = os.path.join(args.out, fname)
        dump_fixture(path, b.cases)
        paths.append(path)
        print('wrote %-16s %4d cases, %8d bytes' % (fname, len(b.cases), os.path.getsize(path)))
        for note in b.notes:
            print('  note: ' + note)
    if not args.no_check:
        import check_functions
        return check_functions.main(paths)
    return 0


if __name__ == '__main__':
    sys.exit(main())
