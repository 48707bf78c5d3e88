"""The `function` cases of the layers that Hugging Face checkpoints need (model_layers.json):
conv_transpose2d, adaptive_avg_pool2d, interpolate, group_norm, rms_norm, relu6, hardswish,
hardsigmoid, gelu at large |x|, and scaled_dot_product_attention with enable_gqa.

generate_functions.py owns the machinery (Builder, evaluation, tolerance sizing) and calls in here
for the torch reference of the new names (`fwd`), their naive re-implementations (`naive_fwd`,
used to size float32 tolerances and, in float64, as the independent check of check_functions.py),
their numpy formulas (`numpy_fwd`) and the case tables (`gen`).
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

# the names this module evaluates; the file also holds gelu and scaled_dot_product_attention cases,
# which generate_functions.py evaluates
NEW_NAMES = ('conv_transpose2d', 'adaptive_avg_pool2d', 'interpolate', 'group_norm', 'rms_norm', 'relu6',
             'hardswish', 'hardsigmoid')
FILE_NAMES = NEW_NAMES + ('gelu', 'scaled_dot_product_attention')

# check_functions.py: inputs (kinds per position, how many required) and params of the new names
SIGNATURES = {
    'conv_transpose2d': (['f', 'f', 'f'], 2), 'adaptive_avg_pool2d': (['f'], 1), 'interpolate': (['f'], 1),
    'group_norm': (['f', 'f', 'f'], 1), 'rms_norm': (['f', 'f'], 1), 'relu6': (['f'], 1), 'hardswish': (['f'], 1),
    'hardsigmoid': (['f'], 1),
}
PARAMS = {
    'conv_transpose2d': {'stride', 'padding', 'output_padding', 'dilation', 'groups'},
    'adaptive_avg_pool2d': {'output_size'},
    'interpolate': {'size', 'scale_factor', 'mode', 'align_corners', 'recompute_scale_factor'},
    'group_norm': {'num_groups', 'eps'}, 'rms_norm': {'normalized_shape', 'eps'},
}
REQUIRED_PARAMS = {'adaptive_avg_pool2d': {'output_size'}, 'group_norm': {'num_groups'},
                   'rms_norm': {'normalized_shape'}}


def effective_params(name, p, case_dtype):
    """rms_norm's absent eps is the machine epsilon of the case dtype (PyTorch's default), not of
    the float64 the reference runs in."""
    if name == 'rms_norm' and 'eps' not in p and case_dtype is not None:
        return dict(p, eps=float(torch.finfo({'float32': torch.float32, 'float64': torch.float64}[case_dtype]).eps))
    return p


# ----------------------------------------------------------------- reference (torch)

def fwd(name, p, ts):
    x = ts[0]
    if name in ('relu6', 'hardswish', 'hardsigmoid'):
        return [getattr(F, name)(x)]
    if name == 'conv_transpose2d':
        kw = {k: p[k] for k in ('stride', 'padding', 'output_padding', 'dilation', 'groups') if k in p}
        return [F.conv_transpose2d(x, ts[1], ts[2] if len(ts) > 2 else None, **kw)]
    if name == 'adaptive_avg_pool2d':
        return [F.adaptive_avg_pool2d(x, p['output_size'])]
    if name == 'interpolate':
        kw = {k: p[k] for k in ('size', 'scale_factor', 'mode', 'align_corners', 'recompute_scale_factor') if k in p}
        return [F.interpolate(x, **kw)]
    if name == 'group_norm':
        return [F.group_norm(x, p['num_groups'], ts[1] if len(ts) > 1 else None, ts[2] if len(ts) > 2 else None,
                             eps=p.get('eps', 1e-5))]
    if name == 'rms_norm':
        return [F.rms_norm(x, p['normalized_shape'], ts[1] if len(ts) > 1 else None, eps=p.get('eps'))]
    raise ValueError(name)


# ----------------------------------------------------------------- naive re-implementations
# From the formulas, one tap or one bin at a time, sums accumulated term by term, in the dtype of
# the inputs (float32 shows a loop implementation's error; float64 checks the reference).

def _seq_sum(t):
    acc = torch.zeros(t.shape[:-1], dtype=t.dtype)
    for i in range(t.shape[-1]):
        acc = acc + t[..., i]
    return acc


def _pair(v, n):
    return [v] * n if isinstance(v, int) else list(v)


def naive_conv_transpose2d(x, w, b, p):
    """Scatter form: every input element adds x·w[c, o, kh, kw] at output (i·s + kh·d − pad, ...)."""
    unbatched = x.ndim == 3
    x = x[None] if unbatched else x
    (sh, sw), (ph, pw) = _pair(p.get('stride', 1), 2), _pair(p.get('padding', 0), 2)
    (oph, opw), (dh, dw) = _pair(p.get('output_padding', 0), 2), _pair(p.get('dilation', 1), 2)
    groups = p.get('groups', 1)
    n, c, h, wd = x.shape
    cg, og, kh, kw = c // groups, w.shape[1], w.shape[2], w.shape[3]
    full_h = (h - 1) * sh + dh * (kh - 1) + 1 + oph
    full_w = (wd - 1) * sw + dw * (kw - 1) + 1 + opw
    out_h, out_w = full_h - 2 * ph, full_w - 2 * pw
    outs = []
    for g in range(groups):
        acc = torch.zeros((n, og, full_h, full_w), dtype=x.dtype)
        for ci in range(cg):
            for i in range(kh):
                for j in range(kw):
                    term = x[:, g * cg + ci][:, None] * w[g * cg + ci, :, i, j][None, :, None, None]
                    placed = torch.zeros((n, og, full_h, full_w), dtype=x.dtype)
                    placed[:, :, i * dh:i * dh + (h - 1) * sh + 1:sh, j * dw:j * dw + (wd - 1) * sw + 1:sw] = term
                    acc = acc + placed
        outs.append(acc[:, :, ph:ph + out_h, pw:pw + out_w])
    out = torch.cat(outs, 1)
    if b is not None:
        out = out + b[None, :, None, None]
    return out[0] if unbatched else out


def _adaptive_sizes(output_size, spatial):
    sizes = _pair(output_size, 2)
    return [s if o is None else o for o, s in zip(sizes, spatial)]


def naive_adaptive_avg_pool2d(x, p):
    """Bin i of an axis: [floor(i·in/out), ceil((i + 1)·in/out)), averaged element by element."""
    h, w = x.shape[-2:]
    oh, ow = _adaptive_sizes(p['output_size'], (h, w))
    if oh == 0 or ow == 0:
        return torch.zeros(x.shape[:-2] + (oh, ow), dtype=x.dtype)
    rows = []
    for i in range(oh):
        hs, he = (i * h) // oh, -((-(i + 1) * h) // oh)
        cells = []
        for j in range(ow):
            ws, we = (j * w) // ow, -((-(j + 1) * w) // ow)
            window = x[..., hs:he, ws:we].reshape(x.shape[:-2] + ((he - hs) * (we - ws),))
            cells.append(_seq_sum(window) / ((he - hs) * (we - ws)))
        rows.append(torch.stack(cells, -1))
    return torch.stack(rows, -2)


def _float(v, single):
    return float(np.float32(v)) if single else float(v)


def _nearest_taps(n_in, n_out, scale_factor, exact):
    """PyTorch's nearest source indices, computed in float32 as its kernels do (the scale 1/factor
    or in/out as a float, dst·scale rounded to float, floored; nearest-exact floors (dst + ½)·scale)."""
    scale = np.float32(1.0 / scale_factor) if scale_factor is not None else np.float32(n_in) / np.float32(n_out)
    taps = []
    for o in range(n_out):
        if n_out == n_in:
            src = o
        elif not exact and n_out == 2 * n_in:
            src = o >> 1
        elif exact:
            src = int(math.floor(np.float32((o + 0.5) * float(scale))))
        else:
            src = int(math.floor(np.float32(o) * scale))
        taps.append([(min(src, n_in - 1), 1.0)])
    return taps


def _linear_taps(n_in, n_out, scale_factor, align_corners, single):
    """PyTorch's linear source index and weights in the input's precision: align_corners
    src = dst·(in − 1)/(out − 1), else max((dst + ½)·scale − ½, 0); i0 = min(floor(src), in − 1),
    λ = clamp(src − i0, 0, 1), taps i0 and i0 + 1 (i0 again at the last input)."""
    if n_out == n_in:
        return [[(o, 1.0)] for o in range(n_out)]
    f = np.float32 if single else np.float64
    if align_corners:
        scale = f(n_in - 1) / f(n_out - 1) if n_out > 1 else f(0)
    elif scale_factor is not None:
        scale = f(1.0 / scale_factor)
    else:
        scale = f(n_in) / f(n_out)
    taps = []
    for o in range(n_out):
        if align_corners:
            src = scale * f(o)
        else:
            src = scale * (f(o) + f(0.5)) - f(0.5)
            src = f(0) if src < 0 else src
        i0 = min(int(math.floor(np.float32(src))), n_in - 1)
        lam = min(max(src - f(i0), f(0)), f(1))
        i1 = i0 + 1 if i0 < n_in - 1 else i0
        taps.append([(i0, float(f(1) - lam)), (i1, float(lam))])
    return taps


def naive_interpolate(x, p):
    """One output element at a time per axis, as the sum of its taps (gathered, not a matrix)."""
    mode = p.get('mode', 'nearest')
    spatial = list(x.shape[2:])
    dims = len(spatial)
    if 'size' in p:
        sizes = _pair(p['size'], dims)
        factors = [None] * dims
    else:
        factors = [float(v) for v in _pair(p['scale_factor'], dims)] if isinstance(p['scale_factor'], list) \
            else [float(p['scale_factor'])] * dims
        sizes = [int(math.floor(s * f)) for s, f in zip(spatial, factors)]
        if p.get('recompute_scale_factor'):
            factors = [None] * dims
    single = x.dtype == torch.float32
    y = x
    for axis in range(dims):
        n_in, n_out = spatial[axis], sizes[axis]
        if mode in ('nearest', 'nearest-exact'):
            taps = _nearest_taps(n_in, n_out, factors[axis], mode == 'nearest-exact')
        else:
            taps = _linear_taps(n_in, n_out, factors[axis], p.get('align_corners') or False, single)
        moved = y.movedim(2 + axis, -1)
        columns = []
        for tap in taps:
            value = None
            for index, weight in tap:
                term = moved[..., index] * weight
                value = term if value is None else value + term
            columns.append(value)
        y = torch.stack(columns, -1).movedim(-1, 2 + axis)
    return y


def naive_group_norm(x, w, b, p):
    n, c = x.shape[:2]
    g = p['num_groups']
    y = x.reshape(n, g, math.prod(x.shape[1:]) // g)
    count = y.shape[-1]
    mean = _seq_sum(y) / count
    d = y - mean[..., None]
    var = _seq_sum(d * d) / count
    r = (d / torch.sqrt(var[..., None] + p.get('eps', 1e-5))).reshape(x.shape)
    shape = [1, c] + [1] * (x.ndim - 2)
    if w is not None:
        r = r * w.reshape(shape)
    if b is not None:
        r = r + b.reshape(shape)
    return r


def naive_rms_norm(x, w, p):
    k = len(p['normalized_shape'])
    y = x.reshape(list(x.shape[:x.ndim - k]) + [math.prod(p['normalized_shape'])])
    mean_square = _seq_sum(y * y) / y.shape[-1]
    r = (y / torch.sqrt(mean_square[..., None] + p['eps'])).reshape(x.shape)
    return r * w if w is not None else r


def naive_fwd(name, p, ts):
    x = ts[0]
    if name == 'conv_transpose2d':
        return [naive_conv_transpose2d(x, ts[1], ts[2] if len(ts) > 2 else None, p)]
    if name == 'adaptive_avg_pool2d':
        return [naive_adaptive_avg_pool2d(x, p)]
    if name == 'interpolate':
        return [naive_interpolate(x, p)]
    if name == 'group_norm':
        return [naive_group_norm(x, ts[1] if len(ts) > 1 else None, ts[2] if len(ts) > 2 else None, p)]
    if name == 'rms_norm':
        return [naive_rms_norm(x, ts[1] if len(ts) > 1 else None, p)]
    return None


def repeat_kv_heads(q, k, v):
    """enable_gqa by copies: key and value heads repeated to the query's (the naive check only)."""
    return k.repeat_interleave(q.shape[-3] // k.shape[-3], -3), v.repeat_interleave(q.shape[-3] // v.shape[-3], -3)


# ----------------------------------------------------------------- numpy formulas

def numpy_fwd(name, p, xs):
    x = xs[0] if xs else None
    if name == 'relu6':
        return [np.where(np.isnan(x), x, np.minimum(np.maximum(x, 0.0), 6.0))]
    if name == 'hardswish':
        return [x * np.minimum(np.maximum(x + 3.0, 0.0), 6.0) / 6.0]
    if name == 'hardsigmoid':
        return [np.minimum(np.maximum(x + 3.0, 0.0), 6.0) / 6.0]
    return None


# ----------------------------------------------------------------- cases

def gen(b, rng, H):
    """H: generate_functions (the value helpers R, A, I, B, rvals, dt and FLOAT)."""
    _activations(b, rng, H)
    _conv_transpose(b, rng, H)
    _adaptive(b, rng, H)
    _interpolate(b, rng, H)
    _norms(b, rng, H)
    _gqa(b, rng, H)
    return b


def _activations(b, rng, H):
    R, A, dt = H.R, H.A, H.dt
    inf, nan = math.inf, math.nan
    for name in ('relu6', 'hardswish', 'hardsigmoid'):
        for d in H.FLOAT:
            x = H.rvals(rng, (4, 5), d) * 4  # every piece, no kink hit exactly
            b.case(name, 'random-%s' % dt(d), [A(x, d)])
            b.case(name, 'scalar-%s' % dt(d), [R(rng, (), d)])
            # PyTorch's gradients at the kinks: relu6 0 at 0 and 6; hardswish 0 at -3, 1 at 3;
            # hardsigmoid 0 at +-3
            b.case(name, 'kink-%s' % dt(d), [A([-3.0, 3.0, 0.0, 6.0, -6.0, -0.0, 2.5, -1.5, 7.0], d)])
            b.case(name, 'special-%s' % dt(d), [A([nan, inf, -inf, 0.0, -0.0, 1e30, -1e30], d)], grad=False)
            b.case(name, 'zero-size-%s' % dt(d), [A(np.zeros((0, 3)), d)])
    for approximate in ('none', 'tanh'):
        for d in H.FLOAT:
            b.case('gelu', 'large-%s-%s' % (approximate, dt(d)),
                   [A([-1e3, -40.0, -12.0, -10.0, -8.0, -6.0, -5.0, 5.0, 6.0, 10.0, 40.0, 1e3], d)],
                   {'approximate': approximate})


def _conv_transpose(b, rng, H):
    R, dt = H.R, H.dt
    cases = [
        # tag, x shape, weight shape (in, out / groups, kh, kw), bias, params
        ('basic-bias', (1, 2, 4, 4), (2, 3, 3, 3), True, {}),
        ('stride2-no-bias', (2, 2, 3, 3), (2, 2, 3, 3), False, {'stride': 2}),
        ('stride2-pad1-outpad1', (1, 3, 4, 4), (3, 2, 3, 3), True, {'stride': 2, 'padding': 1, 'output_padding': 1}),
        ('stride-list-pad-list-outpad-list', (1, 2, 3, 4), (2, 2, 3, 2), True,
         {'stride': [2, 3], 'padding': [1, 0], 'output_padding': [1, 2]}),
        ('dilation2-pad1', (1, 2, 4, 4), (2, 2, 3, 3), True, {'dilation': 2, 'padding': 1}),
        ('dilation2-stride2-outpad1', (1, 2, 3, 3), (2, 3, 2, 2), False,
         {'stride': 2, 'dilation': 2, 'output_padding': 1}),
        ('outpad-below-dilation', (1, 2, 3, 3), (2, 2, 2, 2), True, {'stride': 1, 'dilation': 3, 'output_padding': 2}),
        ('dilation-list', (1, 2, 4, 3), (2, 2, 2, 3), False, {'dilation': [1, 2], 'padding': [0, 1]}),
        ('groups2-stride2', (1, 4, 3, 3), (4, 3, 3, 3), True, {'groups': 2, 'stride': 2, 'padding': 1}),
        ('depthwise', (2, 3, 4, 4), (3, 1, 3, 3), False, {'groups': 3, 'stride': 2}),
        ('depthwise-multiplier', (1, 3, 3, 3), (3, 2, 2, 2), True, {'groups': 3, 'stride': 2}),
        ('rect-kernel-1x3', (1, 2, 3, 3), (2, 2, 1, 3), True, {'padding': [0, 1]}),
        ('kernel1x1-stride2', (1, 3, 3, 3), (3, 2, 1, 1), True, {'stride': 2}),
        ('kernel-equals-stride', (1, 2, 3, 3), (2, 2, 2, 2), True, {'stride': 2}),
        ('padding-cuts-past-kernel', (1, 2, 4, 4), (2, 2, 3, 3), False, {'stride': 2, 'padding': 3}),
        ('one-by-one-input', (2, 3, 1, 1), (3, 2, 3, 3), True, {'stride': 2}),
        ('batch3-one-channel', (3, 1, 3, 2), (1, 2, 2, 2), True, {}),
        ('odd-sizes-all-params', (2, 4, 5, 3), (4, 3, 3, 2), True,
         {'stride': [3, 2], 'padding': [2, 1], 'output_padding': [1, 0], 'dilation': [2, 1], 'groups': 2}),
        ('unbatched', (2, 3, 3), (2, 2, 2, 2), True, {'stride': 2, 'padding': 1}),
        ('explicit-defaults', (1, 2, 3, 3), (2, 2, 2, 2), True,
         {'stride': 1, 'padding': 0, 'output_padding': 0, 'dilation': 1, 'groups': 1}),
    ]
    for tag, xs, ws, bias, params in cases:
        for d in H.FLOAT:
            out = ws[1] * params.get('groups', 1)
            args = [R(rng, xs, d), R(rng, ws, d)] + ([R(rng, (out,), d)] if bias else [])
            b.case('conv_transpose2d', '%s-%s' % (tag, dt(d)), args, params)
    for d in H.FLOAT:
        b.case('conv_transpose2d', 'zero-batch-%s' % dt(d), [R(rng, (0, 2, 3, 3), d), R(rng, (2, 2, 2, 2), d)],
               {'stride': 2})
        b.case('conv_transpose2d', 'wider-channels-%s' % dt(d), [R(rng, (2, 8, 4, 4), d), R(rng, (8, 6, 3, 3), d),
                                                                  R(rng, (6,), d)], {'stride': 2, 'padding': 1})
    f32, f64 = 'float32', 'float64'
    b.error('conv_transpose2d', 'output-padding-not-below-stride', [R(rng, (1, 2, 3, 3), f32), R(rng, (2, 2, 3, 3), f32)],
            {'stride': 2, 'output_padding': 2}, kind='any')
    b.error('conv_transpose2d', 'output-padding-without-stride', [R(rng, (1, 2, 3, 3), f64), R(rng, (2, 2, 3, 3), f64)],
            {'output_padding': 1}, kind='any')
    b.error('conv_transpose2d', 'in-channels-mismatch', [R(rng, (1, 3, 3, 3), f32), R(rng, (2, 2, 3, 3), f32)])
    b.error('conv_transpose2d', 'groups-not-dividing-channels', [R(rng, (1, 3, 3, 3), f64), R(rng, (3, 1, 3, 3), f64)],
            {'groups': 2})
    b.error('conv_transpose2d', 'bias-length-mismatch', [R(rng, (1, 2, 3, 3), f32), R(rng, (2, 3, 2, 2), f32),
                                                         R(rng, (2,), f32)])
    b.error('conv_transpose2d', 'output-size-not-positive', [R(rng, (1, 2, 2, 2), f64), R(rng, (2, 2, 1, 1), f64)],
            {'padding': 1})
    b.error('conv_transpose2d', 'weight-3d', [R(rng, (1, 2, 3, 3), f32), R(rng, (2, 2, 3), f32)])
    b.error('conv_transpose2d', 'input-2d', [R(rng, (2, 3), f64), R(rng, (2, 2, 3, 3), f64)])
    b.error('conv_transpose2d', 'stride-zero', [R(rng, (1, 2, 3, 3), f32), R(rng, (2, 2, 3, 3), f32)], {'stride': 0},
            kind='any')
    b.error('conv_transpose2d', 'negative-padding', [R(rng, (1, 2, 3, 3), f64), R(rng, (2, 2, 3, 3), f64)],
            {'padding': -1}, kind='any')


def _adaptive(b, rng, H):
    R, dt = H.R, H.dt
    cases = [
        ('divisible-6x6-to-3', (1, 2, 6, 6), 3),
        ('divisible-8x6-to-4x3', (2, 2, 8, 6), [4, 3]),
        ('global-1', (2, 3, 5, 7), 1),
        ('global-list-1x1', (1, 2, 4, 3), [1, 1]),
        ('overlapping-5x5-to-3', (1, 2, 5, 5), 3),
        ('overlapping-7x5-to-3x2', (2, 1, 7, 5), [3, 2]),
        ('overlapping-5-to-4', (1, 2, 5, 5), 4),
        ('larger-output-3x4-to-5x7', (1, 2, 3, 4), [5, 7]),
        ('mixed-divisible-and-not', (1, 2, 6, 7), [2, 3]),
        ('same-size', (1, 2, 4, 5), [4, 5]),
        ('none-keeps-height', (1, 2, 5, 6), [None, 4]),
        ('none-keeps-width', (1, 2, 5, 6), [3, None]),
        ('odd-10x7-to-4x7', (1, 1, 10, 7), [4, 7]),
        ('one-pixel-input', (1, 3, 1, 1), 2),
        ('unbatched', (3, 5, 4), [2, 3]),
        ('resnet-head-7x7-to-1', (2, 4, 7, 7), 1),
    ]
    for tag, xs, size in cases:
        for d in H.FLOAT:
            b.case('adaptive_avg_pool2d', '%s-%s' % (tag, dt(d)), [R(rng, xs, d)], {'output_size': size})
    for d in H.FLOAT:
        b.case('adaptive_avg_pool2d', 'zero-batch-%s' % dt(d), [R(rng, (0, 2, 5, 5), d)], {'output_size': 3})
        b.case('adaptive_avg_pool2d', 'long-row-100-to-37-%s' % dt(d), [R(rng, (1, 1, 2, 100), d)],
               {'output_size': [1, 37]})
        # an empty output is allowed (torch's backward rejects it: values only)
        b.case('adaptive_avg_pool2d', 'zero-output-%s' % dt(d), [R(rng, (1, 2, 4, 4), d)], {'output_size': [0, 2]},
               grad=False)
    b.error('adaptive_avg_pool2d', 'input-2d', [R(rng, (4, 4), 'float32')], {'output_size': 2})
    b.error('adaptive_avg_pool2d', 'output-size-one-value-list', [R(rng, (1, 2, 4, 4), 'float64')],
            {'output_size': [2]}, kind='any')
    b.error('adaptive_avg_pool2d', 'input-5d', [R(rng, (1, 1, 2, 4, 4), 'float32')], {'output_size': 2})


def _interpolate(b, rng, H):
    R, dt = H.R, H.dt
    nearest = [
        ('scale2-int', (1, 2, 3, 4), {'scale_factor': 2}),
        ('scale2-float', (2, 1, 3, 3), {'scale_factor': 2.0}),
        ('scale-list-2-3', (1, 2, 3, 2), {'scale_factor': [2.0, 3.0]}),
        ('scale1p5', (1, 2, 4, 5), {'scale_factor': 1.5}),
        ('scale1p7-uses-1-over-factor', (1, 1, 4, 5), {'scale_factor': 1.7}),
        ('scale1p7-recompute', (1, 1, 4, 5), {'scale_factor': 1.7, 'recompute_scale_factor': True}),
        ('scale0p5-down', (1, 2, 6, 5), {'scale_factor': 0.5}),
        ('scale0p6-down', (1, 2, 7, 5), {'scale_factor': 0.6}),
        ('scale3-odd', (1, 1, 3, 3), {'scale_factor': 3}),
        ('size-5x7', (1, 2, 3, 4), {'size': [5, 7]}),
        ('size-int', (1, 2, 3, 4), {'size': 6}),
        ('size-same', (1, 2, 3, 4), {'size': [3, 4]}),
        ('size-down-2x3', (2, 1, 5, 7), {'size': [2, 3]}),
        ('size-14-from-10', (1, 1, 10, 3), {'size': [14, 3]}),
        ('size-20-from-14', (1, 1, 14, 2), {'size': [20, 2]}),
        ('mode-explicit', (1, 2, 2, 3), {'size': [4, 6], 'mode': 'nearest'}),
        ('one-pixel-input', (1, 2, 1, 1), {'size': [3, 2]}),
        ('nearest-exact-size', (1, 2, 4, 5), {'size': [7, 3], 'mode': 'nearest-exact'}),
        ('nearest-exact-scale', (1, 1, 5, 4), {'scale_factor': 1.5, 'mode': 'nearest-exact'}),
        ('nearest-1d', (2, 2, 5), {'size': 8}),
        ('nearest-3d', (1, 1, 2, 3, 2), {'scale_factor': [2.0, 1.0, 1.5]}),
    ]
    bilinear = [
        ('size-up', (1, 2, 3, 4), {'size': [5, 7]}),
        ('size-up-align', (1, 2, 3, 4), {'size': [5, 7], 'align_corners': True}),
        ('size-up-no-align-explicit', (1, 2, 3, 4), {'size': [5, 7], 'align_corners': False}),
        ('size-down', (2, 1, 7, 6), {'size': [3, 4]}),
        ('size-down-align', (2, 1, 7, 6), {'size': [3, 4], 'align_corners': True}),
        ('scale2', (1, 2, 3, 3), {'scale_factor': 2}),
        ('scale2-align', (1, 2, 3, 3), {'scale_factor': 2.0, 'align_corners': True}),
        ('scale1p5', (1, 1, 4, 5), {'scale_factor': 1.5}),
        ('scale1p7-recompute', (1, 1, 4, 5), {'scale_factor': 1.7, 'recompute_scale_factor': True}),
        ('scale0p75-down', (1, 2, 8, 6), {'scale_factor': 0.75}),
        ('scale-list', (1, 1, 3, 5), {'scale_factor': [1.3, 2.1]}),
        ('scale-keeps-size', (1, 1, 4, 4), {'scale_factor': 1.2}),
        ('size-1-out', (1, 2, 4, 5), {'size': [1, 1]}),
        ('size-1-out-align', (1, 2, 4, 5), {'size': [1, 3], 'align_corners': True}),
        ('one-row-input', (1, 2, 1, 4), {'size': [3, 6]}),
        ('one-row-input-align', (1, 2, 1, 4), {'size': [3, 6], 'align_corners': True}),
        ('size-same', (1, 2, 3, 4), {'size': [3, 4]}),
        ('odd-sizes', (2, 3, 5, 3), {'size': [8, 7]}),
        ('size-int', (1, 1, 3, 4), {'size': 5, 'align_corners': True}),
    ]
    for tag, xs, params in nearest:
        for d in H.FLOAT:
            b.case('interpolate', 'nearest-%s-%s' % (tag, dt(d)), [R(rng, xs, d)], params)
    for tag, xs, params in bilinear:
        for d in H.FLOAT:
            b.case('interpolate', 'bilinear-%s-%s' % (tag, dt(d)), [R(rng, xs, d)], dict(params, mode='bilinear'))
    for d in H.FLOAT:
        # long rows: PyTorch's float32 index arithmetic at many positions, both directions
        for n_in, n_out in ((100, 37), (37, 100), (77, 256)):
            for mode, extra in (('nearest', {}), ('bilinear', {}), ('bilinear', {'align_corners': True})):
                tag = '%s%s-long-row-%d-to-%d' % (mode, '-align' if extra else '', n_in, n_out)
                b.case('interpolate', '%s-%s' % (tag, dt(d)), [R(rng, (1, 1, 1, n_in), d)],
                       dict(extra, size=[2, n_out], mode=mode))
        b.case('interpolate', 'nearest-zero-batch-%s' % dt(d), [R(rng, (0, 2, 3, 3), d)], {'scale_factor': 2})
        b.case('interpolate', 'bilinear-zero-batch-%s' % dt(d), [R(rng, (0, 2, 3, 3), d)],
               {'size': [4, 5], 'mode': 'bilinear'})
        b.case('interpolate', 'linear-1d-%s' % dt(d), [R(rng, (2, 2, 5), d)], {'size': 8, 'mode': 'linear'})
        b.case('interpolate', 'linear-1d-align-%s' % dt(d), [R(rng, (1, 2, 4), d)],
               {'scale_factor': 2.5, 'mode': 'linear', 'align_corners': True})
        b.case('interpolate', 'trilinear-3d-%s' % dt(d), [R(rng, (1, 1, 2, 3, 2), d)],
               {'size': [3, 4, 3], 'mode': 'trilinear'})
    f32, f64 = 'float32', 'float64'
    b.error('interpolate', 'size-and-scale-factor', [R(rng, (1, 1, 3, 3), f32)], {'size': [4, 4], 'scale_factor': 2},
            kind='any')
    b.error('interpolate', 'align-corners-with-nearest', [R(rng, (1, 1, 3, 3), f64)],
            {'size': [4, 4], 'align_corners': True}, kind='any')
    b.error('interpolate', 'bilinear-on-3d-input', [R(rng, (1, 2, 5), f32)], {'size': 3, 'mode': 'bilinear'})
    b.error('interpolate', 'size-list-length', [R(rng, (1, 1, 3, 3), f64)], {'size': [4]}, kind='any')
    b.error('interpolate', 'scale-factor-to-zero', [R(rng, (1, 1, 3, 3), f32)], {'scale_factor': 0.2}, kind='any')
    b.error('interpolate', 'size-zero', [R(rng, (1, 1, 3, 3), f64)], {'size': 0}, kind='any')
    b.error('interpolate', 'unknown-mode', [R(rng, (1, 1, 3, 3), f32)], {'size': 4, 'mode': 'cubic'}, kind='any')


def _norms(b, rng, H):
    R, A, dt = H.R, H.A, H.dt
    group = [
        # tag, x shape, groups, affine inputs (0: none, 1: weight, 2: weight and bias), params
        ('4d-groups3', (2, 6, 3, 3), 3, 2, {}),
        ('4d-groups1', (2, 4, 2, 3), 1, 2, {'eps': 1e-3}),
        ('4d-groups-per-channel', (2, 3, 3, 2), 3, 2, {}),
        ('2d-input', (3, 4), 2, 2, {}),
        ('3d-input', (2, 4, 5), 2, 2, {'eps': 0.1}),
        ('5d-input', (1, 4, 2, 3, 2), 2, 2, {}),
        ('no-affine', (2, 4, 3, 3), 2, 0, {}),
        ('weight-only', (2, 4, 3), 4, 1, {}),
        ('one-sample', (1, 6, 2, 2), 2, 2, {}),
    ]
    for tag, xs, groups, affine, params in group:
        for d in H.FLOAT:
            c = xs[1]
            args = [R(rng, xs, d)] + [R(rng, (c,), d) for _ in range(affine)]
            b.case('group_norm', '%s-%s' % (tag, dt(d)), args, dict(params, num_groups=groups))
    for d in H.FLOAT:  # two-pass variance: offset 1e3, spread 10 (E[x^2] - E[x]^2 loses it in float32)
        x = 1e3 + 10 * H.rvals(rng, (2, 4, 3, 3), d)
        b.case('group_norm', 'stability-offset-1e3-%s' % dt(d), [A(x, d), R(rng, (4,), d), R(rng, (4,), d)],
               {'num_groups': 2})
    b.error('group_norm', 'groups-not-dividing-channels', [R(rng, (2, 6, 3), 'float32')], {'num_groups': 4})
    b.error('group_norm', 'weight-length-mismatch', [R(rng, (2, 6, 3), 'float64'), R(rng, (3,), 'float64'),
                                                     R(rng, (6,), 'float64')], {'num_groups': 3})
    b.error('group_norm', 'input-1d', [R(rng, (6,), 'float32')], {'num_groups': 2})
    rms = [
        # tag, x shape, normalized shape, weight, params
        ('last-dim-weight-default-eps', (2, 3, 8), [8], True, {}),
        ('last-dim-weight-eps1e-6', (2, 3, 8), [8], True, {'eps': 1e-6}),
        ('no-weight', (4, 5), [5], False, {}),
        ('no-weight-eps', (4, 5), [5], False, {'eps': 1e-5}),
        ('two-dims', (2, 3, 4), [3, 4], True, {'eps': 1e-6}),
        ('vector', (7,), [7], True, {}),
        ('odd-width-33', (2, 33), [33], True, {'eps': 1e-6}),
    ]
    for tag, xs, shape, weight, params in rms:
        for d in H.FLOAT:
            args = [R(rng, xs, d)] + ([R(rng, tuple(shape), d)] if weight else [])
            b.case('rms_norm', '%s-%s' % (tag, dt(d)), args, dict(params, normalized_shape=shape))
    for d in H.FLOAT:
        big = 1e4 * H.rvals(rng, (2, 6), d)
        b.case('rms_norm', 'stability-values-1e4-%s' % dt(d), [A(big, d), R(rng, (6,), d)], {'normalized_shape': [6]})
        tiny = 1e-20 * H.rvals(rng, (2, 6), d)
        b.case('rms_norm', 'stability-tiny-values-%s' % dt(d), [A(tiny, d)], {'normalized_shape': [6]})
        b.case('rms_norm', 'zero-batch-%s' % dt(d), [R(rng, (0, 4), d), R(rng, (4,), d)], {'normalized_shape': [4]})
        b.case('rms_norm', 'wide-512-%s' % dt(d), [R(rng, (2, 512), d), R(rng, (512,), d)],
               {'normalized_shape': [512], 'eps': 1e-6})
        rows = H.rvals(rng, (3, 4), d)
        rows[1] = 0.0
        b.case('rms_norm', 'zero-row-%s' % dt(d), [A(rows, d), R(rng, (4,), d)], {'normalized_shape': [4], 'eps': 1e-6})
    b.error('rms_norm', 'normalized-shape-mismatch', [R(rng, (2, 5), 'float32')], {'normalized_shape': [4]})
    b.error('rms_norm', 'weight-shape-mismatch', [R(rng, (2, 5), 'float64'), R(rng, (4,), 'float64')],
            {'normalized_shape': [5]})


def _gqa(b, rng, H):
    R, B, dt = H.R, H.B, H.dt
    cases = [
        # tag, q shape, k shape, v shape, mask, params
        ('hq4-hkv2-self', (2, 4, 3, 4), (2, 2, 3, 4), (2, 2, 3, 4), None, {}),
        ('mqa-hkv1-cross', (2, 4, 3, 4), (2, 1, 5, 4), (2, 1, 5, 3), None, {}),
        ('hq6-hkv3-causal', (1, 6, 4, 3), (1, 3, 4, 3), (1, 3, 4, 3), None, {'is_causal': True}),
        ('causal-l3-s5', (1, 4, 3, 2), (1, 2, 5, 2), (1, 2, 5, 2), None, {'is_causal': True}),
        ('causal-l5-s3', (1, 4, 5, 2), (1, 1, 3, 2), (1, 1, 3, 2), None, {'is_causal': True}),
        ('k-and-v-heads-differ', (1, 4, 3, 4), (1, 2, 4, 4), (1, 1, 4, 2), None, {}),
        ('equal-heads', (2, 2, 3, 4), (2, 2, 3, 4), (2, 2, 3, 4), None, {}),
        ('bool-mask-ls', (2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4), 'bool-ls', {}),
        ('bool-mask-full', (1, 4, 3, 2), (1, 2, 4, 2), (1, 2, 4, 2), 'bool-full', {}),
        ('bool-mask-b1ls', (2, 4, 3, 2), (2, 1, 4, 2), (2, 1, 4, 2), 'bool-b1ls', {'scale': 0.6}),
        ('float-mask-hls', (1, 4, 3, 3), (1, 2, 4, 3), (1, 2, 4, 3), 'float-hls', {}),
        ('scale', (1, 6, 2, 4), (1, 2, 3, 4), (1, 2, 3, 4), None, {'scale': 0.25}),
        ('rank3-no-batch', (4, 3, 4), (2, 5, 4), (2, 5, 3), None, {}),
        ('rank5', (2, 2, 4, 3, 2), (2, 2, 2, 3, 2), (2, 2, 2, 3, 2), None, {}),
        ('batch-broadcast', (1, 4, 3, 2), (3, 2, 4, 2), (3, 2, 4, 2), None, {}),
        ('key-batch-rank-lower', (2, 4, 3, 2), (2, 4, 2), (2, 4, 2), None, {}),
        ('value-dim-differs-causal', (1, 4, 4, 3), (1, 2, 4, 3), (1, 2, 4, 5), None, {'is_causal': True}),
    ]
    for tag, qs, ks, vs, mask, params in cases:
        for d in H.FLOAT:
            args = [R(rng, qs, d), R(rng, ks, d), R(rng, vs, d)]
            L, S = qs[-2], ks[-2]
            if mask is not None:
                kind, mshape = mask.split('-', 1)
                shape = {'ls': (L, S), 'full': qs[:-2] + (L, S), 'b1ls': (qs[0], 1, L, S), 'hls': (qs[-3], L, S)}[mshape]
                keep = rng.integers(0, 2, size=shape)
                keep[..., 0] = 1
                args.append(B(keep) if kind == 'bool' else H.A(H.rvals(rng, shape, d), d))
            b.case('scaled_dot_product_attention', 'gqa-%s-%s' % (tag, dt(d)), args, dict(params, enable_gqa=True))
    for d in H.FLOAT:
        b.case('scaled_dot_product_attention', 'gqa-disabled-explicit-%s' % dt(d),
               [R(rng, (1, 2, 3, 4), d), R(rng, (1, 2, 3, 4), d), R(rng, (1, 2, 3, 4), d)], {'enable_gqa': False})
    f32, f64 = 'float32', 'float64'
    b.error('scaled_dot_product_attention', 'gqa-heads-not-dividing',
            [R(rng, (1, 4, 3, 2), f32), R(rng, (1, 3, 3, 2), f32), R(rng, (1, 3, 3, 2), f32)], {'enable_gqa': True})
    b.error('scaled_dot_product_attention', 'gqa-more-kv-heads',
            [R(rng, (1, 2, 3, 2), f64), R(rng, (1, 4, 3, 2), f64), R(rng, (1, 4, 3, 2), f64)], {'enable_gqa': True})
    b.error('scaled_dot_product_attention', 'gqa-value-heads-not-dividing',
            [R(rng, (1, 4, 3, 2), f32), R(rng, (1, 2, 3, 2), f32), R(rng, (1, 3, 3, 2), f32)], {'enable_gqa': True})
    b.error('scaled_dot_product_attention', 'gqa-rank2',
            [R(rng, (3, 2), f64), R(rng, (3, 2), f64), R(rng, (3, 2), f64)], {'enable_gqa': True})
    b.error('scaled_dot_product_attention', 'heads-differ-without-gqa',
            [R(rng, (1, 4, 3, 2), f32), R(rng, (1, 2, 3, 2), f32), R(rng, (1, 2, 3, 2), f32)])
    b.error('scaled_dot_product_attention', 'gqa-mask-with-kv-heads',
            [R(rng, (1, 4, 3, 2), f64), R(rng, (1, 2, 3, 2), f64), R(rng, (1, 2, 3, 2), f64),
             B(np.ones((1, 2, 3, 3)))], {'enable_gqa': True})
