#!/usr/bin/env python3
"""Generate the ein4j conformance fixtures (format `ein4j-conformance/1`).

    pip install einops torch==2.13.0
    python3 conformance-tests/generator/generate_fixtures.py

Writes conformance-tests/fixtures/{rearrange,reduce,repeat,einsum,einsum_numpy,
pack,errors,integer}.json and then runs check_fixtures.py over them.  The output is
deterministic: every file has its own fixed seed, so running the script again
rewrites the fixtures byte for byte.

Expected values are computed in float64 (einops on torch float64 tensors,
torch.einsum; ein4j-only einsum features via reshape + torch.einsum) and
rounded to the case dtype; gradients are float64 torch autograd VJPs, rounded.
integer.json holds int32 and bool cases (einops on torch int32/bool tensors,
torch.einsum on int64), compared exactly, without gradients.
Float32 tolerances are sized by re-running every case in float32 (torch and a
naive sequential-accumulation brute force) and keeping a 4x margin.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import torch
import einops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ein4j_ref as ref  # noqa: E402

FIXTURES_DIR = os.path.normpath(os.path.join(HERE, '..', 'fixtures'))
FORMAT = 'ein4j-conformance/1'
NP_DT = {'float32': np.float32, 'float64': np.float64, 'int32': np.int32, 'bool': np.bool_}
INT_DTYPES = ('int32', 'bool')
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1
TORCH_DT = {'float32': torch.float32, 'float64': torch.float64}
DEFAULT_TOL = {'float32': (1e-5, 1e-6), 'float64': (1e-12, 1e-12)}
ATOL_STEPS = {'float32': [1e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3],
              'float64': [1e-12, 1e-11, 1e-10, 1e-9]}
MARGIN = 0.25  # simulated float32 / float64 errors must stay below a quarter of the tolerance
DTYPES = ('float32', 'float64')
SEEDS = {'rearrange': 20240101, 'reduce': 20240102, 'repeat': 20240103, 'einsum': 20240104,
         'einsum_numpy': 20240105, 'pack': 20240106, 'errors': 20240107, 'integer': 20240108}
LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

torch.set_num_threads(1)


def generator_string():
    return ('ein4j conformance-tests/generator/generate_fixtures.py: expected values and '
            'gradients computed in float64 with einops %s on torch %s tensors (torch.einsum '
            'for einsum; ein4j-only einsum features via reshape + torch.einsum), numpy %s, '
            'then rounded to the case dtype'
            % (einops.__version__, torch.__version__, np.__version__))


# ----------------------------------------------------------------- encoding

def enc_value(v, dtype):
    if dtype in INT_DTYPES:
        i = int(v)
        if dtype == 'bool':
            assert i in (0, 1), v
        else:
            assert INT32_MIN <= i <= INT32_MAX, v
        return i
    if dtype == 'float32':
        f = np.float32(v)
        if np.isnan(f):
            return 'nan'
        if np.isinf(f):
            return 'inf' if f > 0 else '-inf'
        d = float(str(f))  # shortest decimal that identifies the float32
        if np.float32(d) != f or math.copysign(1.0, d) != math.copysign(1.0, float(f)):
            d = float(f)
        return d
    d = float(v)
    if math.isnan(d):
        return 'nan'
    if math.isinf(d):
        return 'inf' if d > 0 else '-inf'
    return d


def enc_tensor(a, dtype):
    a = np.asarray(a, dtype=np.float64).astype(NP_DT[dtype])
    return {'shape': [int(d) for d in a.shape], 'dtype': dtype,
            'data': [enc_value(v, dtype) for v in a.ravel(order='C')]}


def dec_value(v):
    if isinstance(v, str):
        return {'nan': math.nan, 'inf': math.inf, '-inf': -math.inf}[v]
    return float(v)


def dec_tensor(obj):
    """Returns (float64 array holding the dtype's values, dtype); int32 and bool as
    float64 integers (bool 0/1)."""
    data = np.array([dec_value(v) for v in obj['data']], dtype=np.float64)
    a = data.astype(NP_DT[obj['dtype']]).astype(np.float64).reshape(obj['shape'])
    return a, obj['dtype']


def round_to(a, dtype):
    return np.asarray(a, dtype=np.float64).astype(NP_DT[dtype]).astype(np.float64)


# ----------------------------------------------------------------- random values

def normal_values(rng, shape, dtype, distinct=False):
    n = math.prod(shape)
    while True:
        x = rng.standard_normal(n)
        x = np.array([float('%.6g' % v) for v in x], dtype=np.float64)
        x = round_to(x, dtype)
        if not distinct or len(np.unique(x)) == n:
            return x.reshape(shape)


# ----------------------------------------------------------------- reference computation

def ein4j_einsum_torch(pattern, tensors):
    """einops-notation einsum with the ein4j extensions (compositions, unit and
    anonymous axes, diagonals) lowered to reshape + torch.einsum."""
    plan = ref.plan_einsum_einops(pattern, [tuple(t.shape) for t in tensors])
    letters = iter(LETTERS)
    names = {}

    def letter(a):
        key = ('anon', id(a)) if isinstance(a, ref.Anon) else a
        if key not in names:
            names[key] = next(letters)
        return names[key]

    subs, elems = [], []
    for t, gs, ell in zip(tensors, plan.op_groups, plan.op_ell):
        s, shape = '', []
        for g in gs:
            if g.kind == 'ell':
                s += '...'
                shape.extend(ell)
            else:
                for a in g.atoms:
                    s += letter(a)
                    shape.append(plan.atom_len(a))
        subs.append(s)
        elems.append(t.reshape(shape))
    out = ''
    for g in plan.out_groups:
        out += '...' if g.kind == 'ell' else ''.join(letter(a) for a in g.atoms)
    r = torch.einsum(','.join(subs) + '->' + out, *elems)
    return r.reshape(plan.out_shape())


def forward(spec, ts):
    op, pattern, axes = spec['op'], spec['pattern'], spec.get('axes') or {}
    if op == 'rearrange':
        return [einops.rearrange(ts[0], pattern, **axes)], None
    if op == 'reduce':
        return [einops.reduce(ts[0], pattern, spec['reduction'], **axes)], None
    if op == 'repeat':
        return [einops.repeat(ts[0], pattern, **axes)], None
    if op == 'einsum':
        if spec.get('syntax') == 'numpy':
            return [torch.einsum(pattern, *ts)], None
        return [ein4j_einsum_torch(pattern, ts)], None
    if op == 'pack':
        packed, ps = einops.pack(list(ts), pattern)
        return [packed], [[int(d) for d in p] for p in ps]
    if op == 'unpack':
        return list(einops.unpack(ts[0], spec['packed_shapes'], pattern)), None
    raise ValueError(op)


def reference(spec, inputs, dtype='float64', upstream=None):
    """Run the reference in torch `dtype`; returns (outputs, packed_shapes, grads)."""
    tdt = TORCH_DT[dtype]
    ts = [torch.tensor(np.asarray(a, dtype=np.float64), dtype=tdt, requires_grad=True) for a in inputs]
    outs, ps = forward(spec, ts)
    outs_np = [o.detach().numpy().astype(np.float64) for o in outs]
    grads = None
    if upstream is not None:
        loss = sum((o * torch.tensor(np.asarray(u, dtype=np.float64), dtype=tdt)).sum()
                   for o, u in zip(outs, upstream))
        gs = torch.autograd.grad(loss, ts, allow_unused=True)
        grads = [np.zeros(np.shape(a)) if g is None else g.detach().numpy().astype(np.float64)
                 for a, g in zip(inputs, gs)]
    return outs_np, ps, grads


def plan_for(spec, inputs):
    d = dict(spec)
    d['shapes'] = [tuple(np.shape(a)) for a in inputs]
    return ref.plan_case(d)


# ----------------------------------------------------------------- tolerance sizing

def violation(actual, expected, rtol, atol):
    """Largest |a - e| / (atol + rtol |e|); inf on a NaN/inf/shape mismatch."""
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if a.shape != e.shape:
        return math.inf
    if a.size == 0:
        return 0.0
    an, en = np.isnan(a), np.isnan(e)
    if (an != en).any():
        return math.inf
    fin = np.isfinite(e)
    if ((~fin & ~en) & (a != e)).any():
        return math.inf
    m = fin
    if not m.any():
        return 0.0
    if not np.isfinite(a[m]).all():
        return math.inf
    return float(np.max(np.abs(a[m] - e[m]) / (atol + rtol * np.abs(e[m]))))


def pick_atol(dtype, sims, expected):
    rtol = DEFAULT_TOL[dtype][0]
    for atol in ATOL_STEPS[dtype]:
        if all(violation(s, e, rtol, atol) <= MARGIN for sim in sims for s, e in zip(sim, expected)):
            return atol
    raise RuntimeError('no tolerance fits')


UNIT_ROUNDOFF = {'float32': 2.0 ** -24, 'float64': 2.0 ** -53}


def _gamma(n, dtype):
    nu = n * UNIT_ROUNDOFF[dtype]
    return nu / (1 - nu)


def _needed_atol(dtype, bound, expected):
    """Smallest atol step with |err| <= bound covered: bound <= atol + rtol |e| everywhere."""
    rtol = DEFAULT_TOL[dtype][0]
    e = np.asarray(expected, dtype=np.float64)
    if e.size == 0:
        return ATOL_STEPS[dtype][0]
    need = float(np.max(np.where(np.isfinite(e), bound - rtol * np.abs(e), 0.0)))
    for atol in ATOL_STEPS[dtype]:
        if atol >= need:
            return atol
    raise RuntimeError('error bound too large for the tolerance steps')


def rigorous_atols(plan, inputs, upstream, dtype, exp_outs, exp_grads):
    """Worst-case rounding bounds, valid for any summation order: a sum of n products of
    k factors computed in `dtype` is within gamma(n + k) * sum|terms| of the exact value."""
    if plan.combine not in ('sum', 'mean') or has_nonfinite(inputs):
        return ATOL_STEPS[dtype][0], ATOL_STEPS[dtype][0]
    lay = ref._Layout(plan)
    grid = math.prod(lay.sizes)
    n_out = math.prod(lay.sizes[:len(lay.out_axes)])
    extra = len(inputs) + (1 if plan.combine == 'mean' else 0)
    abs_in = [np.abs(a) for a in inputs]
    n = grid // max(n_out, 1) + extra
    atol = _needed_atol(dtype, _gamma(n, dtype) * ref.bf_eval(plan, abs_in), exp_outs[0])
    gatol = ATOL_STEPS[dtype][0]
    if exp_grads is not None:
        abs_g = ref.bf_grad(plan, abs_in, np.abs(upstream[0]))
        for a, ga, ge in zip(inputs, abs_g, exp_grads):
            nk = grid // max(np.size(a), 1) + extra
            gatol = max(gatol, _needed_atol(dtype, _gamma(nk, dtype) * ga, ge))
    return atol, gatol


def size_tolerances(spec, inputs, dtype, exp_outs, upstream, exp_grads):
    """atol for outputs and for gradients: the larger of (a) what keeps float32/float64
    re-runs (torch, naive sequential brute force) within MARGIN of the tolerance and
    (b) the worst-case rounding bound of the summation."""
    npdt = NP_DT[dtype]
    sim_outs, sim_grads = [], []
    o, _, g = reference(spec, inputs, dtype, upstream)
    sim_outs.append(o)
    if g is not None:
        sim_grads.append(g)
    req_atol = req_gatol = ATOL_STEPS[dtype][0]
    if spec['op'] in ('rearrange', 'reduce', 'repeat', 'einsum'):
        plan = plan_for(spec, inputs)
        sim_outs.append([ref.bf_eval(plan, inputs, npdt)])
        if upstream is not None and plan.combine in ('sum', 'mean'):
            sim_grads.append(ref.bf_grad(plan, inputs, upstream[0], npdt))
        req_atol, req_gatol = rigorous_atols(plan, inputs, upstream, dtype, exp_outs, exp_grads)
    atol = max(pick_atol(dtype, sim_outs, exp_outs), req_atol)
    gatol = max(pick_atol(dtype, sim_grads, exp_grads), req_gatol) if exp_grads is not None else None
    return atol, gatol


# ----------------------------------------------------------------- case assembly

def has_nonfinite(arrays):
    return any(not np.isfinite(np.asarray(a)).all() for a in arrays)


def make_case(rng, cid, spec, inputs, dtype, grad=True):
    """spec: op, pattern and optional syntax/axes/reduction/packed_shapes."""
    plan_for(spec, inputs)  # must be valid under the ein4j rules
    outs, ps, _ = reference(spec, inputs)
    grad = grad and not has_nonfinite(inputs)
    upstream = [normal_values(rng, o.shape, dtype) for o in outs] if grad else None
    outs, ps, grads = reference(spec, inputs, 'float64', upstream)
    exp_outs = [round_to(o, dtype) for o in outs]
    exp_grads = [round_to(g, dtype) for g in grads] if grad else None
    atol, gatol = size_tolerances(spec, inputs, dtype, exp_outs, upstream, exp_grads)

    case = {'id': cid, 'op': spec['op']}
    if 'syntax' in spec:
        case['syntax'] = spec['syntax']
    case['pattern'] = spec['pattern']
    if spec.get('axes'):
        case['axes'] = dict(spec['axes'])
    if 'reduction' in spec:
        case['reduction'] = spec['reduction']
    case['inputs'] = [enc_tensor(a, dtype) for a in inputs]
    if spec['op'] == 'unpack':
        case['packed_shapes'] = [list(p) for p in spec['packed_shapes']]
    case['expected'] = {'outputs': [enc_tensor(o, dtype) for o in exp_outs]}
    if spec['op'] == 'pack':
        case['expected']['packed_shapes'] = ps
    if grad:
        case['grad'] = {'upstream': [enc_tensor(u, dtype) for u in upstream],
                        'inputs': [enc_tensor(g, dtype) for g in exp_grads]}
    rtol0, atol0 = DEFAULT_TOL[dtype]
    if atol != atol0:
        case['rtol'], case['atol'] = rtol0, atol
    eff_atol = atol
    if grad and gatol != eff_atol:
        case['grad_rtol'], case['grad_atol'] = rtol0, gatol
    return case


def make_error(rng, cid, spec, shapes, dtype, kind):
    inputs = [normal_values(rng, s, dtype) for s in shapes]
    d = dict(spec)
    d['shapes'] = [tuple(s) for s in shapes]
    try:
        ref.plan_case(d)
        got = None
    except ref.PatternError as e:
        got = e.kind
    if got != kind:
        raise AssertionError('%s: tagged %s but the ein4j rules say %s' % (cid, kind, got))
    case = {'id': cid, 'op': spec['op']}
    if 'syntax' in spec:
        case['syntax'] = spec['syntax']
    case['pattern'] = spec['pattern']
    if spec.get('axes'):
        case['axes'] = dict(spec['axes'])
    if 'reduction' in spec:
        case['reduction'] = spec['reduction']
    case['inputs'] = [enc_tensor(a, dtype) for a in inputs]
    if 'packed_shapes' in spec:
        case['packed_shapes'] = [list(p) for p in spec['packed_shapes']]
    case['expected'] = {'error': kind}
    return case


def dt_short(dtype):
    return {'float32': 'f32', 'float64': 'f64', 'int32': 'i32', 'bool': 'bool'}[dtype]


def with_specials(a, specials):
    a = a.copy()
    for idx, v in specials.items():
        a[idx] = v
    return a


# ----------------------------------------------------------------- rearrange

REARRANGE = [
    ('transpose', 'a b -> b a', (3, 4), {}),
    ('permute3', 'a b c -> c a b', (2, 3, 4), {}),
    ('merge-last', 'a b c -> a (b c)', (2, 3, 4), {}),
    ('split-given', 'a (b c) -> a b c', (2, 12), {'b': 3}),
    ('split-and-merge', '(a b) c -> a (c b)', (6, 4), {'a': 2}),
    ('split-middle', 'b (h w) c -> b h w c', (2, 6, 3), {'h': 2}),
    ('flatten-tail', 'b h w c -> b (h w c)', (2, 2, 3, 2), {}),
    ('space-to-depth', 'b c (h p1) (w p2) -> b (c p1 p2) h w', (1, 2, 4, 4), {'p1': 2, 'p2': 2}),
    ('depth-to-space', 'b (c p1 p2) h w -> b c (h p1) (w p2)', (1, 8, 2, 2), {'p1': 2, 'p2': 2}),
    ('ellipsis-start', '... a b -> ... b a', (2, 3, 4, 5), {}),
    ('ellipsis-middle', 'a ... b -> b ... a', (2, 3, 2, 4), {}),
    ('ellipsis-end', 'a b ... -> b a ...', (2, 3, 4), {}),
    ('ellipsis-start-zero-dims', '... a b -> ... b a', (3, 4), {}),
    ('ellipsis-middle-zero-dims', 'a ... b -> a b ...', (2, 3), {}),
    ('ellipsis-end-zero-dims', 'a b ... -> b a ...', (2, 3), {}),
    ('ellipsis-to-front', 'a b ... -> ... a b', (2, 3, 2, 2), {}),
    ('ellipsis-merge', 'a b ... -> (a b) ...', (2, 3, 2, 2), {}),
    ('ellipsis-split', '... (h w) -> ... h w', (3, 2, 6), {'h': 2}),
    ('ellipsis-middle-composition', 'b ... (g c) -> b g ... c', (2, 3, 4), {'g': 2}),
    ('unit-right-1', 'a b -> a 1 b', (3, 4), {}),
    ('unit-right-parens', 'a b -> a () b ()', (3, 4), {}),
    ('unit-left-1', 'a 1 b -> a b', (3, 1, 4), {}),
    ('unit-left-parens', 'a () b -> b a', (3, 1, 4), {}),
    ('unit-both-ends', '1 a 1 -> a', (1, 5, 1), {}),
    ('unit-moved', 'a 1 b -> 1 b a', (2, 1, 3), {}),
    ('flatten', 'a b -> (a b)', (3, 4), {}),
    ('unflatten', '(a b) -> a b', (12,), {'a': 3}),
    ('unflatten3-reversed', '(a b c) -> c b a', (24,), {'a': 2, 'b': 3}),
    ('merge-reordered', 'a b c -> (c a) b', (2, 3, 4), {}),
    ('identity', 'a b -> a b', (2, 3), {}),
    ('reverse4', 'a b c d -> d c b a', (2, 3, 2, 3), {}),
    ('batch-to-space', '(b1 b2) h w c -> (b1 h) (b2 w) c', (4, 2, 3, 2), {'b1': 2}),
    ('compositions-both-sides', '(a b) (c d) -> (a c) (b d)', (6, 4), {'a': 2, 'c': 2}),
    ('zero-size-transpose', 'a b -> b a', (0, 3), {}),
    ('zero-size-merge', 'a b c -> a (b c)', (2, 0, 3), {}),
    ('scalar-to-unit', '-> 1 1', (), {}),
    ('unit-to-scalar', '1 1 ->', (1, 1), {}),
    ('scalar-identity', '->', (), {}),
    ('given-length-consistent', 'a b -> b a', (3, 4), {'a': 3}),
    ('all-lengths-given', 'a b c -> a c b', (2, 3, 4), {'a': 2, 'b': 3, 'c': 4}),
    ('large-channels-first', 'b (h w) c -> b c h w', (2, 64, 4), {'h': 8}),
    ('nchw-to-nhwc', 'b c h w -> b h w c', (2, 3, 4, 5), {}),
    ('long-names', 'batch time feature -> time batch feature', (2, 3, 2), {}),
    ('names-with-digits-underscores', 'x_1 y2 -> y2 x_1', (3, 2), {}),
]


def gen_rearrange(rng):
    cases = []
    for name, pattern, shape, axes in REARRANGE:
        for dtype in DTYPES:
            x = normal_values(rng, shape, dtype)
            cases.append(make_case(rng, 'rearrange/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'rearrange', 'pattern': pattern, 'axes': axes}, [x], dtype))
    for dtype in DTYPES:
        x = with_specials(normal_values(rng, (3, 4), dtype),
                          {(0, 1): math.nan, (1, 2): math.inf, (2, 0): -math.inf})
        cases.append(make_case(rng, 'rearrange/nan-inf-%s' % dt_short(dtype),
                               {'op': 'rearrange', 'pattern': 'a (b c) -> (c a) b', 'axes': {'b': 2}},
                               [x], dtype))
    return cases


# ----------------------------------------------------------------- reduce

REDUCE = [
    ('rows', 'a b -> a', (3, 4), {}),
    ('cols', 'a b -> b', (3, 4), {}),
    ('all-to-scalar', 'a b ->', (3, 4), {}),
    ('middle', 'a b c -> a c', (2, 3, 4), {}),
    ('pool2x2', 'b c (h p1) (w p2) -> b c h w', (1, 2, 4, 4), {'p1': 2, 'p2': 2}),
    ('ellipsis-reduced', '... c -> c', (2, 3, 4), {}),
    ('ellipsis-end-reduced', 'b ... -> b', (2, 3, 2), {}),
    ('ellipsis-middle-reduced', 'a ... c -> a c', (2, 3, 2, 3), {}),
    ('ellipsis-start-kept', '... a b -> ... a', (2, 3, 4), {}),
    ('ellipsis-end-kept', 'a b ... -> a ...', (2, 3, 2), {}),
    ('ellipsis-zero-dims', 'a ... b -> a b', (3, 4), {}),
    ('keepdim-1', 'a b -> a 1', (3, 4), {}),
    ('keepdim-parens', 'a b c -> a () c', (2, 3, 4), {}),
    ('anonymous-left', 'a 2 c -> a c', (3, 2, 4), {}),
    ('composition-left', '(a b) c -> a', (6, 2), {'b': 3}),
    ('composition-right', 'a b c -> (a c)', (2, 3, 4), {}),
    ('no-reduced-axes', 'a b -> a b', (2, 3), {}),
    ('four-dims', 'a b c d -> b', (2, 3, 2, 2), {}),
    ('unit-left', '1 a b -> a', (1, 3, 4), {}),
]

PROD_ZEROS = [
    ('prod-zeros-rows', 'a b -> a', (3, 4), {}, [(0, 1), (0, 3), (1, 2)]),
    ('prod-zeros-cols', 'a b -> b', (3, 4), {}, [(0, 0), (2, 0), (1, 3)]),
    ('prod-one-zero-scalar', 'a b ->', (3, 4), {}, [(1, 1)]),
    ('prod-two-zeros-scalar', 'a b ->', (2, 3), {}, [(0, 0), (1, 2)]),
    ('prod-zeros-3d', 'a b c -> a c', (2, 3, 2), {}, [(0, 0, 0), (0, 2, 0), (1, 1, 1)]),
    ('prod-zeros-pool', 'b (h p) -> b h', (2, 6), {'p': 3}, [(0, 0), (0, 1), (1, 4)]),
]


def gen_reduce(rng):
    cases = []
    i = 0
    for name, pattern, shape, axes in REDUCE:
        for red in ref.REDUCTIONS:
            dtype = DTYPES[i % 2]
            i += 1
            x = normal_values(rng, shape, dtype, distinct=red in ('max', 'min'))
            cases.append(make_case(rng, 'reduce/%s-%s-%s' % (red, name, dt_short(dtype)),
                                   {'op': 'reduce', 'pattern': pattern, 'reduction': red, 'axes': axes},
                                   [x], dtype))
    for name, pattern, shape, axes, zeros in PROD_ZEROS:
        for dtype in DTYPES:
            x = with_specials(normal_values(rng, shape, dtype), {z: 0.0 for z in zeros})
            cases.append(make_case(rng, 'reduce/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'reduce', 'pattern': pattern, 'reduction': 'prod', 'axes': axes},
                                   [x], dtype))
    for dtype in DTYPES:
        x = with_specials(normal_values(rng, (3, 4), dtype), {(0, 1): math.inf, (1, 2): math.nan})
        cases.append(make_case(rng, 'reduce/sum-nan-inf-%s' % dt_short(dtype),
                               {'op': 'reduce', 'pattern': 'a b -> a', 'reduction': 'sum'}, [x], dtype))
    return cases


# ----------------------------------------------------------------- repeat

REPEAT = [
    ('new-axis-last', 'a b -> a b c', (2, 3), {'c': 3}),
    ('new-axis-first', 'a b -> c a b', (3, 4), {'c': 2}),
    ('new-axis-middle', 'a b -> a c b', (3, 4), {'c': 2}),
    ('two-new-axes', 'a b -> a b c d', (2, 3), {'c': 2, 'd': 2}),
    ('anonymous-in-compositions', 'h w -> (h 2) (w 2)', (2, 3), {}),
    ('anonymous-new-axis', 'h w -> h w 3', (2, 3), {}),
    ('repeat-outer', 'h w -> (r h) w', (2, 3), {'r': 2}),
    ('repeat-inner', 'h w -> h (w r)', (2, 3), {'r': 3}),
    ('vector-to-matrix', 'a -> a b', (3,), {'b': 4}),
    ('scalar-input', '-> a b', (), {'a': 2, 'b': 3}),
    ('ellipsis-start', '... c -> ... r c', (2, 3, 2), {'r': 2}),
    ('ellipsis-end', 'a ... -> a r ...', (2, 3), {'r': 2}),
    ('ellipsis-middle', 'a ... b -> a ... b r', (2, 3, 2), {'r': 2}),
    ('ellipsis-zero-dims', 'a ... -> a 2 ...', (3,), {}),
    ('unit-left-1', 'a 1 b -> a c b', (2, 1, 3), {'c': 3}),
    ('unit-left-parens', 'a () b -> (a c) b', (2, 1, 3), {'c': 2}),
    ('unit-right', 'a b -> a b 1', (2, 3), {}),
    ('unit-right-parens', 'a -> () a 2', (3,), {}),
    ('permute-only', 'a b -> b a', (3, 4), {}),
    ('merge-with-new', 'a b -> (a b c)', (2, 3), {'c': 2}),
    ('split-and-new', '(a b) -> a b c', (6,), {'a': 2, 'c': 2}),
    ('upsample', 'b h w -> b (h h2) (w w2)', (2, 2, 3), {'h2': 2, 'w2': 2}),
    ('given-existing-axes', 'a b -> a b c', (2, 3), {'a': 2, 'b': 3, 'c': 2}),
    ('large', 'b c -> b (c r) s', (4, 6), {'r': 4, 's': 5}),
]


def gen_repeat(rng):
    cases = []
    for name, pattern, shape, axes in REPEAT:
        for dtype in DTYPES:
            x = normal_values(rng, shape, dtype)
            cases.append(make_case(rng, 'repeat/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'repeat', 'pattern': pattern, 'axes': axes}, [x], dtype))
    for dtype in DTYPES:
        x = with_specials(normal_values(rng, (2, 3), dtype), {(0, 0): math.nan, (1, 1): -math.inf})
        cases.append(make_case(rng, 'repeat/nan-inf-%s' % dt_short(dtype),
                               {'op': 'repeat', 'pattern': 'a b -> a (b r)', 'axes': {'r': 2}}, [x], dtype))
    return cases


# ----------------------------------------------------------------- einsum (einops notation)

EINSUM = [
    ('matmul', 'i j, j k -> i k', [(3, 4), (4, 5)]),
    ('attention-scores', 'b h i d, b h j d -> b h i j', [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ('attention-values', 'b h i j, b h j d -> b h i d', [(2, 2, 3, 5), (2, 2, 5, 4)]),
    ('attention-3d', 'b i d, b j d -> b i j', [(2, 3, 4), (2, 5, 4)]),
    ('outer', 'i, j -> i j', [(3,), (4,)]),
    ('outer-2d-1d', 'a b, c -> a b c', [(2, 3), (4,)]),
    ('outer-4d', 'i j, k l -> i j k l', [(2, 3), (2, 2)]),
    ('trace', 'i i ->', [(4, 4)]),
    ('diagonal', 'i i -> i', [(4, 4)]),
    ('batch-diagonal', 'b i i -> b i', [(2, 3, 3)]),
    ('batch-trace', 'b i i -> b', [(2, 3, 3)]),
    ('diagonal-nonadjacent', 'i j i -> i j', [(3, 2, 3)]),
    ('diagonal-then-contract', 'i i j, j -> i', [(3, 3, 4), (4,)]),
    ('diagonal-with-ellipsis', '... i i -> ... i', [(2, 3, 3)]),
    ('transpose', 'i j -> j i', [(3, 4)]),
    ('sum-all', 'i j ->', [(3, 4)]),
    ('sum-cols', 'i j -> i', [(3, 4)]),
    ('matvec', 'i j, j -> i', [(3, 4), (4,)]),
    ('dot', 'i, i ->', [(5,), (5,)]),
    ('frobenius', 'i j, i j ->', [(3, 4), (3, 4)]),
    ('hadamard', 'i j, i j -> i j', [(3, 4), (3, 4)]),
    ('chain3', 'a b, b c, c d -> a d', [(2, 3), (3, 4), (4, 2)]),
    ('chain4', 'a b, b c, c d, d e -> a e', [(2, 3), (3, 4), (4, 3), (3, 2)]),
    ('shared-index3', 'a b, a c, a d -> b c d', [(3, 2), (3, 2), (3, 3)]),
    ('trace-of-product4', 'i j, j k, k l, l i ->', [(2, 3), (3, 2), (2, 3), (3, 2)]),
    ('cyclic3', 'i j, j k, k i -> i', [(3, 2), (2, 4), (4, 3)]),
    ('dot3', 'i, i, i ->', [(4,), (4,), (4,)]),
    ('scalar-output-4', 'a, a b, b c, c ->', [(2,), (2, 3), (3, 2), (2,)]),
    ('free-sum-4', 'a b, b c, c d, e -> a d', [(2, 3), (3, 2), (2, 2), (3,)]),
    ('batched-matmul', 'b i j, b j k -> b i k', [(2, 3, 4), (2, 4, 2)]),
    ('sum-out-one-operand', 'i j k, k -> j', [(2, 3, 4), (4,)]),
    ('sum-out-both-operands', 'a b, c d -> a d', [(2, 3), (4, 2)]),
    ('mixed-contract', 'a b c, c b -> a', [(2, 3, 4), (4, 3)]),
    ('linear-layer', 'b i d, d o -> b i o', [(4, 8, 10), (10, 6)]),
    ('ellipsis-start', '... i j, ... j k -> ... i k', [(2, 3, 4), (2, 4, 2)]),
    ('ellipsis-start-2d', '... i j, ... j k -> ... i k', [(2, 2, 3, 4), (2, 2, 4, 2)]),
    ('ellipsis-middle', 'i ... j, j k -> i ... k', [(2, 3, 4), (4, 2)]),
    ('ellipsis-end', 'i j ..., j k -> i k ...', [(2, 3, 2), (3, 4)]),
    ('ellipsis-batch-dot', '... i, ... i -> ...', [(2, 3, 4), (2, 3, 4)]),
    ('ellipsis-zero-dims', '... i j -> ... j i', [(3, 4)]),
    ('ellipsis-zero-dims-2', '... i j, ... j k -> ... i k', [(2, 3), (3, 4)]),
    ('input-composition', 'b (h d), h d e -> b h e', [(2, 6), (2, 3, 4)]),
    ('input-composition-first', '(a b) c, a -> b c', [(6, 4), (2,)]),
    ('input-composition-inferred', 'b (i j), j k -> b i k', [(2, 6), (3, 4)]),
    ('output-composition', 'b i j, b j k -> (b i) k', [(2, 3, 4), (2, 4, 2)]),
    ('output-composition-2', 'b i j, b j k -> b (i k)', [(2, 3, 4), (2, 4, 2)]),
    ('compositions-both-sides', 'b (h d), h d -> (b h)', [(2, 6), (2, 3)]),
    ('unit-1-input', 'b 1 i, i j -> b j', [(2, 1, 3), (3, 4)]),
    ('unit-parens-input', 'b () i, i j -> b j', [(2, 1, 3), (3, 4)]),
    ('anonymous-input', 'b 2 i, i j -> b j', [(2, 2, 3), (3, 4)]),
    ('anonymous-in-composition', 'b (2 i), i j -> b j', [(2, 6), (3, 4)]),
    ('unit-1-output', 'i j, j k -> i 1 k', [(3, 4), (4, 2)]),
    ('unit-parens-output', 'i j -> () j i', [(2, 3)]),
    ('long-names', 'batch seq dim, dim out -> batch seq out', [(2, 3, 4), (4, 2)]),
]


def gen_einsum(rng):
    cases = []
    for name, pattern, shapes in EINSUM:
        for dtype in DTYPES:
            xs = [normal_values(rng, s, dtype) for s in shapes]
            cases.append(make_case(rng, 'einsum/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'einsum', 'pattern': pattern}, xs, dtype))
    return cases


# ----------------------------------------------------------------- einsum (numpy notation)

EINSUM_NUMPY = [
    ('matmul', 'ij,jk->ik', [(3, 4), (4, 5)]),
    ('matmul-implicit', 'ij,jk', [(3, 4), (4, 5)]),
    ('implicit-sorted-output', 'jk,ij', [(4, 5), (3, 4)]),
    ('implicit-transpose', 'ji', [(3, 4)]),
    ('implicit-identity', 'ij', [(3, 4)]),
    ('outer', 'i,j->ij', [(3,), (4,)]),
    ('outer-implicit-reversed', 'j,i', [(3,), (4,)]),
    ('trace', 'ii->', [(4, 4)]),
    ('trace-implicit', 'ii', [(4, 4)]),
    ('diagonal', 'ii->i', [(4, 4)]),
    ('batch-diagonal', 'bii->bi', [(2, 3, 3)]),
    ('diagonal-then-contract', 'iij,j->i', [(3, 3, 4), (4,)]),
    ('transpose', 'ij->ji', [(3, 4)]),
    ('sum-all', 'ij->', [(3, 4)]),
    ('dot', 'i,i->', [(5,), (5,)]),
    ('dot-implicit', 'i,i', [(5,), (5,)]),
    ('hadamard', 'ij,ij->ij', [(3, 4), (3, 4)]),
    ('chain3', 'ab,bc,cd->ad', [(2, 3), (3, 4), (4, 2)]),
    ('chain4', 'ab,bc,cd,de->ae', [(2, 3), (3, 4), (4, 3), (3, 2)]),
    ('chain4-implicit', 'ab,bc,cd,de', [(2, 3), (3, 4), (4, 3), (3, 2)]),
    ('scalar-output-4', 'a,ab,bc,c->', [(2,), (2, 3), (3, 2), (2,)]),
    ('attention-scores', 'bhid,bhjd->bhij', [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ('batched-matmul', 'bij,bjk->bik', [(2, 3, 4), (2, 4, 2)]),
    ('sum-out-one-operand', 'ijk,k->j', [(2, 3, 4), (4,)]),
    ('broadcast-batch', '...ij,...jk->...ik', [(1, 2, 3), (3, 3, 4)]),
    ('broadcast-batch-other', '...ij,...jk->...ik', [(3, 2, 3), (1, 3, 4)]),
    ('broadcast-rank', '...ij,...jk->...ik', [(2, 1, 2, 3), (4, 3, 2)]),
    ('broadcast-implicit', '...ij,...jk', [(1, 2, 3), (3, 3, 4)]),
    ('ellipsis-start', '...ij->...ji', [(2, 3, 4)]),
    ('ellipsis-middle', 'i...j->j...i', [(2, 3, 2, 4)]),
    ('ellipsis-end', 'ij...->ji...', [(2, 3, 4)]),
    ('ellipsis-zero-dims', '...ij,...jk->...ik', [(2, 3), (3, 4)]),
    ('ellipsis-implicit-transpose', '...ji', [(2, 3, 4)]),
    ('ellipsis-dot', '...i,...i->...', [(2, 3, 4), (2, 3, 4)]),
    ('uppercase', 'Ij,jK->IK', [(3, 4), (4, 2)]),
    ('linear-layer', 'bid,do->bio', [(4, 8, 10), (10, 6)]),
]


def gen_einsum_numpy(rng):
    cases = []
    for name, pattern, shapes in EINSUM_NUMPY:
        for dtype in DTYPES:
            xs = [normal_values(rng, s, dtype) for s in shapes]
            cases.append(make_case(rng, 'einsum-numpy/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'einsum', 'syntax': 'numpy', 'pattern': pattern}, xs, dtype))
    return cases


# ----------------------------------------------------------------- pack / unpack

PACK = [
    ('b-star-c', 'b * c', [(2, 3, 4), (2, 4), (2, 2, 2, 4)]),
    ('star-c', '* c', [(3, 2), (2, 2, 2), (2,)]),
    ('b-star', 'b *', [(2, 3), (2,), (2, 2, 2)]),
    ('star-only', '*', [(3,), (2, 2), ()]),
    ('zero-size-part', 'b * c', [(2, 0, 3), (2, 2, 3)]),
    ('zero-size-parts-2', '* c', [(0, 3), (2, 3), (2, 0, 3)]),
    ('zero-size-only', 'b * c', [(2, 0, 3)]),
    ('single-input', 'b * c', [(2, 3, 2, 2)]),
    ('two-before', 'a b *', [(2, 3, 2), (2, 3)]),
    ('two-after', '* a b', [(3, 2, 2), (2, 2)]),
    ('mixed-ranks', 'b * c', [(2, 2, 3), (2, 3), (2, 1, 1, 3)]),
    ('long-names', 'batch * chan', [(2, 3, 2), (2, 2)]),
    ('four-parts', '* c', [(1, 2), (2, 2), (3, 2), (2,)]),
]

UNPACK = [
    ('b-star-c', 'b * c', (2, 8, 3), [[3], [], [2, 2]]),
    ('b-star-c-infer', 'b * c', (2, 8, 3), [[3], [], [2, -1]]),
    ('star-c-infer-first', '* c', (8, 2), [[-1], [2, 2]]),
    ('b-star-zero-part', 'b *', (2, 7), [[3], [0], [4]]),
    ('b-star-zero-composed-part', 'b *', (2, 5), [[2, 0], [5]]),
    ('star-only', '*', (7,), [[2, 3], []]),
    ('single-part', 'b * c', (2, 6, 3), [[6]]),
    ('single-part-infer', 'b * c', (2, 6, 3), [[-1]]),
    ('zero-part-and-infer', 'b * c', (2, 4, 3), [[2, 0], [-1]]),
    ('all-parts-zero', 'a * b', (3, 0, 2), [[0], [2, 0]]),
    ('two-before', 'a b *', (2, 2, 5), [[2], [3]]),
    ('infer-in-composed-part', '* c', (7, 2), [[1], [3, -1]]),
    ('infer-after-unit-part', 'b *', (2, 5), [[], [-1]]),
]


def gen_pack(rng):
    cases = []
    for name, pattern, shapes in PACK:
        for dtype in DTYPES:
            xs = [normal_values(rng, s, dtype) for s in shapes]
            cases.append(make_case(rng, 'pack/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'pack', 'pattern': pattern}, xs, dtype))
    for name, pattern, shape, pshapes in UNPACK:
        for dtype in DTYPES:
            x = normal_values(rng, shape, dtype)
            cases.append(make_case(rng, 'unpack/%s-%s' % (name, dt_short(dtype)),
                                   {'op': 'unpack', 'pattern': pattern, 'packed_shapes': pshapes}, [x], dtype))
    for dtype in DTYPES:
        xs = [with_specials(normal_values(rng, (2, 2), dtype), {(0, 1): math.nan}),
              with_specials(normal_values(rng, (2, 1, 2), dtype), {(1, 0, 0): math.inf, (0, 0, 1): -math.inf})]
        cases.append(make_case(rng, 'pack/nan-inf-%s' % dt_short(dtype),
                               {'op': 'pack', 'pattern': 'b * c'}, xs, dtype))
    return cases


# ----------------------------------------------------------------- errors
# (op, name, kind, spec extras, input shapes)

def _e(op, name, kind, pattern, shapes, **extra):
    spec = {'op': op, 'pattern': pattern}
    spec.update(extra)
    return (name, kind, spec, shapes)


ERRORS = [
    # ---------------- rearrange: syntax
    _e('rearrange', 'unbalanced-open', 'syntax', 'a (b c -> a b c', [(2, 6)]),
    _e('rearrange', 'unbalanced-close', 'syntax', 'a b) -> a b', [(2, 3)]),
    _e('rearrange', 'unbalanced-right', 'syntax', 'a b -> (b a', [(2, 3)]),
    _e('rearrange', 'unbalanced-close-right', 'syntax', 'a b -> b a)', [(2, 3)]),
    _e('rearrange', 'missing-arrow', 'syntax', 'a b c', [(2, 3, 2)]),
    _e('rearrange', 'two-arrows', 'syntax', 'a b -> b a -> a b', [(2, 3)]),
    _e('rearrange', 'stray-hash', 'syntax', 'a # b -> a b', [(2, 3)]),
    _e('rearrange', 'stray-dot', 'syntax', 'a . b -> a b', [(2, 3)]),
    _e('rearrange', 'ellipsis-glued-before-name', 'syntax', '...pre -> ...pre', [(2, 3)]),
    _e('rearrange', 'ellipsis-glued-after-name', 'syntax', 'pre... -> pre...', [(2, 3)]),
    _e('rearrange', 'name-ends-with-underscore', 'syntax', 'a_ b -> b a_', [(2, 3)]),
    _e('reduce', 'ellipsis-glued-in-composition', 'syntax', '(b...) c -> c', [(2, 3)], reduction='sum'),
    _e('rearrange', 'stray-two-dots', 'syntax', 'a .. b -> a b', [(2, 3)]),
    _e('rearrange', 'stray-comma', 'syntax', 'a b -> b, a', [(2, 3)]),
    _e('rearrange', 'unicode-name', 'syntax', 'a \u00e9 -> \u00e9 a', [(2, 3)]),
    _e('rearrange', 'name-starts-with-digit', 'syntax', '2a b -> b 2a', [(2, 3)]),
    _e('rearrange', 'name-starts-with-underscore', 'syntax', '_x b -> b _x', [(2, 3)]),
    _e('rearrange', 'nested-composition', 'syntax', '(a (b c)) -> a b c', [(12,)], axes={'a': 2, 'b': 3}),
    _e('rearrange', 'two-ellipses', 'syntax', '... a ... -> a', [(2, 3, 2)]),
    _e('rearrange', 'ellipsis-only-right', 'syntax', 'a b -> a b ...', [(2, 3)]),
    _e('rearrange', 'ellipsis-only-left', 'syntax', 'a ... -> a', [(2, 3)]),
    _e('rearrange', 'duplicate-left', 'syntax', 'a a -> a', [(2, 2)]),
    _e('rearrange', 'duplicate-right', 'syntax', 'a b -> (a b) a', [(2, 3)]),
    _e('rearrange', 'name-dropped', 'syntax', 'a b -> a', [(2, 3)]),
    _e('rearrange', 'name-added', 'syntax', 'a b -> a b c', [(2, 3)], axes={'c': 2}),
    _e('rearrange', 'renamed', 'syntax', '(a b) -> a c', [(6,)], axes={'a': 2}),
    _e('rearrange', 'anonymous-left', 'syntax', 'a 2 -> a', [(3, 2)]),
    _e('rearrange', 'anonymous-right', 'syntax', 'a b -> a b 2', [(2, 3)]),
    _e('rearrange', 'anonymous-in-composition', 'syntax', 'a (b 3) -> a b', [(2, 6)]),
    _e('rearrange', 'anonymous-zero', 'syntax', 'a 0 -> a', [(2, 1)]),
    # ---------------- rearrange: shape
    _e('rearrange', 'too-many-dims', 'shape', 'a b -> b a', [(2, 3, 4)]),
    _e('rearrange', 'too-few-dims', 'shape', 'a b c -> c b a', [(2, 3)]),
    _e('rearrange', 'too-few-dims-ellipsis', 'shape', 'a b ... c -> c ... b a', [(2, 3)]),
    _e('rearrange', 'too-few-dims-ellipsis-start', 'shape', '... a b -> ... b a', [(3,)]),
    _e('rearrange', 'not-divisible', 'shape', '(a b) -> a b', [(10,)], axes={'a': 4}),
    _e('rearrange', 'not-divisible-middle', 'shape', 'b (h w) c -> b h w c', [(2, 5, 2)], axes={'w': 2}),
    _e('rearrange', 'given-length-mismatch', 'shape', 'a b -> b a', [(2, 4)], axes={'a': 3}),
    _e('rearrange', 'given-product-mismatch', 'shape', '(a b) c -> a b c', [(5, 2)], axes={'a': 2, 'b': 3}),
    _e('rearrange', 'given-name-unused', 'shape', 'a b -> b a', [(2, 3)], axes={'z': 3}),
    _e('rearrange', 'two-unknowns', 'shape', '(a b) -> a b', [(6,)]),
    _e('rearrange', 'two-unknowns-2', 'shape', '(a b) c -> a b c', [(6, 2)]),
    _e('rearrange', 'unit-axis-not-1', 'shape', 'a 1 b -> a b', [(2, 3, 4)]),
    _e('rearrange', 'unit-parens-not-1', 'shape', 'a () -> a', [(2, 2)]),
    # ---------------- reduce: syntax
    _e('reduce', 'name-only-right', 'syntax', 'a b -> c', [(2, 3)], reduction='sum'),
    _e('reduce', 'name-only-right-composition', 'syntax', 'a b -> (a c)', [(2, 3)], reduction='mean'),
    _e('reduce', 'anonymous-right', 'syntax', 'a b -> a 2', [(2, 3)], reduction='mean'),
    _e('reduce', 'unbalanced', 'syntax', 'a (b -> a', [(2, 3)], reduction='max'),
    _e('reduce', 'missing-arrow', 'syntax', 'a b', [(2, 3)], reduction='min'),
    _e('reduce', 'two-arrows', 'syntax', 'a b -> a -> b', [(2, 3)], reduction='sum'),
    _e('reduce', 'duplicate-left', 'syntax', 'a a -> a', [(2, 2)], reduction='prod'),
    _e('reduce', 'duplicate-right', 'syntax', 'a b -> a a', [(2, 3)], reduction='sum'),
    _e('reduce', 'ellipsis-only-right', 'syntax', 'a b -> ... a', [(2, 3)], reduction='max'),
    _e('reduce', 'two-ellipses', 'syntax', '... a ... -> a', [(2, 3, 2)], reduction='min'),
    _e('reduce', 'underscore-name', 'syntax', 'a _b -> a', [(2, 3)], reduction='prod'),
    _e('reduce', 'nested-composition', 'syntax', '(a (b c)) d -> d', [(6, 2)], reduction='sum',
       axes={'a': 1, 'b': 2}),
    _e('reduce', 'stray-percent', 'syntax', 'a % b -> a', [(2, 3)], reduction='mean'),
    _e('reduce', 'anonymous-zero', 'syntax', 'a 0 -> a', [(2, 1)], reduction='max'),
    _e('reduce', 'unicode-name', 'syntax', 'a \u00e9 -> a', [(2, 3)], reduction='min'),
    # ---------------- reduce: shape
    _e('reduce', 'not-divisible-anonymous', 'shape', 'b (h 2) -> b h', [(2, 33)], reduction='sum'),
    _e('reduce', 'anonymous-length-mismatch', 'shape', 'a 2 -> a', [(3, 3)], reduction='max'),
    _e('reduce', 'too-many-dims', 'shape', 'a b -> a', [(2, 3, 4)], reduction='mean'),
    _e('reduce', 'too-few-dims', 'shape', 'a b c -> a', [(2, 3)], reduction='min'),
    _e('reduce', 'too-few-dims-ellipsis', 'shape', 'a ... b c -> a', [(2, 3)], reduction='sum'),
    _e('reduce', 'two-unknowns', 'shape', '(a b) -> a', [(6,)], reduction='prod'),
    _e('reduce', 'given-name-unused', 'shape', 'a b -> a', [(2, 3)], reduction='sum', axes={'c': 2}),
    _e('reduce', 'given-length-mismatch', 'shape', 'a b -> a', [(2, 3)], reduction='max', axes={'b': 5}),
    _e('reduce', 'not-divisible-given', 'shape', '(h p) w -> h w', [(6, 2)], reduction='mean', axes={'p': 4}),
    _e('reduce', 'unit-axis-not-1', 'shape', 'a 1 -> a', [(2, 3)], reduction='sum'),
    # ---------------- repeat: syntax
    _e('repeat', 'name-dropped', 'syntax', 'a b -> a', [(2, 3)]),
    _e('repeat', 'anonymous-left', 'syntax', 'a 2 -> a c', [(3, 2)], axes={'c': 2}),
    _e('repeat', 'duplicate-right', 'syntax', 'a b -> a b b', [(2, 3)]),
    _e('repeat', 'duplicate-left', 'syntax', 'a a -> a c', [(2, 2)], axes={'c': 2}),
    _e('repeat', 'ellipsis-only-right', 'syntax', 'a b -> ... a b', [(2, 3)]),
    _e('repeat', 'ellipsis-only-left', 'syntax', 'a ... -> a c', [(2, 3)], axes={'c': 2}),
    _e('repeat', 'missing-arrow', 'syntax', 'a b a b', [(2, 3)]),
    _e('repeat', 'unbalanced', 'syntax', 'a (b -> a b c', [(2, 3)], axes={'c': 2}),
    _e('repeat', 'nested-composition', 'syntax', 'a b -> (a (b c))', [(2, 3)], axes={'c': 2}),
    _e('repeat', 'anonymous-zero', 'syntax', 'a b -> a b 0', [(2, 3)]),
    _e('repeat', 'name-starts-with-digit', 'syntax', 'a b -> a b 3c', [(2, 3)]),
    _e('repeat', 'two-ellipses-right', 'syntax', 'a ... -> a ... ...', [(2, 3)]),
    _e('repeat', 'stray-hash', 'syntax', 'a b -> a b # c', [(2, 3)], axes={'c': 2}),
    _e('repeat', 'two-arrows', 'syntax', 'a -> a b -> a b c', [(2,)], axes={'b': 2, 'c': 2}),
    # ---------------- repeat: shape
    _e('repeat', 'new-axis-without-length', 'shape', 'a b -> a b c', [(2, 3)]),
    _e('repeat', 'one-new-axis-without-length', 'shape', 'a -> a b c', [(2,)], axes={'b': 2}),
    _e('repeat', 'too-many-dims', 'shape', 'a b -> a b c', [(2, 3, 4)], axes={'c': 2}),
    _e('repeat', 'given-length-mismatch', 'shape', 'a b -> a b c', [(2, 3)], axes={'a': 5, 'c': 2}),
    _e('repeat', 'given-name-unused', 'shape', 'a b -> a b c', [(2, 3)], axes={'c': 2, 'z': 3}),
    _e('repeat', 'two-unknowns', 'shape', '(a b) -> a b c', [(6,)], axes={'c': 2}),
    _e('repeat', 'too-few-dims-ellipsis', 'shape', 'a ... b -> a b ... r', [(2,)], axes={'r': 2}),
    _e('repeat', 'not-divisible', 'shape', '(a b) -> (a b c)', [(6,)], axes={'b': 4, 'c': 2}),
    _e('repeat', 'unit-axis-not-1', 'shape', 'a 1 -> a c', [(2, 2)], axes={'c': 2}),
    # ---------------- einsum (einops notation): syntax
    _e('einsum', 'missing-arrow', 'syntax', 'i j, j k', [(2, 3), (3, 2)]),
    _e('einsum', 'two-arrows', 'syntax', 'i j, j k -> i k -> i', [(2, 3), (3, 2)]),
    _e('einsum', 'duplicate-output', 'syntax', 'i j, j k -> i i', [(2, 3), (3, 2)]),
    _e('einsum', 'duplicate-output-composition', 'syntax', 'a b, b c -> (a c) a', [(2, 3), (3, 2)]),
    _e('einsum', 'duplicate-output-single', 'syntax', 'i j -> i j j', [(2, 3)]),
    _e('einsum', 'output-name-in-no-input', 'syntax', 'i j, j k -> i z', [(2, 3), (3, 2)]),
    _e('einsum', 'anonymous-output', 'syntax', 'i j, j k -> i k 2', [(2, 3), (3, 2)]),
    _e('einsum', 'unbalanced-input', 'syntax', 'i (j, j k -> i k', [(2, 3), (3, 2)]),
    _e('einsum', 'unbalanced-close-input', 'syntax', 'i j), j k -> i k', [(2, 3), (3, 2)]),
    _e('einsum', 'unbalanced-output', 'syntax', 'i j, j k -> (i k', [(2, 3), (3, 2)]),
    _e('einsum', 'nested-input', 'syntax', '(i (j k)), j k -> i', [(12,), (3, 2)]),
    _e('einsum', 'nested-output', 'syntax', 'i j, j k -> (i (k))', [(2, 3), (3, 2)]),
    _e('einsum', 'two-ellipses-operand', 'syntax', '... i ..., i -> ...', [(2, 3, 2), (3,)]),
    _e('einsum', 'stray-hash', 'syntax', 'i #, i -> i', [(2, 3), (2,)]),
    _e('einsum', 'stray-dot-output', 'syntax', 'i j, j k -> i . k', [(2, 3), (3, 2)]),
    _e('einsum', 'stray-two-dots', 'syntax', 'i .. j, j -> i', [(2, 3), (3,)]),
    _e('einsum', 'name-starts-with-digit', 'syntax', 'i 2j, 2j -> i', [(2, 3), (3,)]),
    _e('einsum', 'name-starts-with-underscore', 'syntax', '_i j, j -> _i', [(2, 3), (3,)]),
    _e('einsum', 'unicode-name', 'syntax', 'i \u00e9, \u00e9 -> i', [(2, 3), (3,)]),
    _e('einsum', 'anonymous-zero', 'syntax', 'i 0, i -> i', [(2, 1), (2,)]),
    # ---------------- einsum (einops notation): shape
    _e('einsum', 'length-mismatch', 'shape', 'i j, j k -> i k', [(2, 3), (4, 5)]),
    _e('einsum', 'diagonal-length-mismatch', 'shape', 'i i -> i', [(2, 3)]),
    _e('einsum', 'batch-diagonal-length-mismatch', 'shape', 'b i i -> b', [(2, 3, 4)]),
    _e('einsum', 'one-tensor-two-operands', 'shape', 'i j, j k -> i k', [(2, 3)]),
    _e('einsum', 'three-tensors-two-operands', 'shape', 'i j, j k -> i k', [(2, 3), (3, 2), (2, 2)]),
    _e('einsum', 'two-tensors-three-operands', 'shape', 'i j, j k, k l -> i l', [(2, 3), (3, 2)]),
    _e('einsum', 'wrong-ndim', 'shape', 'i j, j k -> i k', [(2, 3, 4), (3, 5)]),
    _e('einsum', 'too-few-dims-ellipsis', 'shape', '... i j, ... j k -> ... i k', [(3,), (3, 2)]),
    _e('einsum', 'composition-mismatch', 'shape', 'b (h d), h d e -> b h e', [(2, 7), (2, 3, 4)]),
    _e('einsum', 'composition-two-unknowns', 'shape', '(a b) c, c -> a b c', [(6, 2), (2,)]),
    _e('einsum', 'anonymous-length-mismatch', 'shape', 'b 2 i, i j -> b j', [(2, 3, 3), (3, 4)]),
    _e('einsum', 'unit-axis-not-1', 'shape', 'b 1 i, i j -> b j', [(2, 2, 3), (3, 4)]),
    # ---------------- einsum (numpy notation): syntax
    _e('einsum', 'numpy-digit', 'syntax', 'i2,2k->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-underscore', 'syntax', 'i_,_k->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-parenthesis', 'syntax', '(ij),jk->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-parenthesis-output', 'syntax', 'ij,jk->(ik)', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-output-letter-in-no-input', 'syntax', 'ij,jk->iz', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-repeated-output', 'syntax', 'ij,jk->ii', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-repeated-output-2', 'syntax', 'ij,jk->ikk', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-two-arrows', 'syntax', 'ij,jk->ik->i', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-stray-hash', 'syntax', 'ij#,jk->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-two-ellipses', 'syntax', '...i...,i', [(2, 3, 2), (3,)], syntax='numpy'),
    _e('einsum', 'numpy-stray-dot', 'syntax', 'i.j,jk->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-two-dots', 'syntax', 'i..j,jk->ik', [(2, 3), (3, 2)], syntax='numpy'),
    _e('einsum', 'numpy-unicode', 'syntax', 'i\u00e9,\u00e9j->ij', [(2, 3), (3, 2)], syntax='numpy'),
    # ---------------- einsum (numpy notation): shape
    _e('einsum', 'numpy-length-mismatch', 'shape', 'ij,jk->ik', [(2, 3), (4, 5)], syntax='numpy'),
    _e('einsum', 'numpy-ellipsis-no-broadcast', 'shape', '...ij,...jk->...ik', [(2, 2, 3), (4, 3, 4)],
       syntax='numpy'),
    _e('einsum', 'numpy-ellipsis-no-broadcast-rank', 'shape', '...ij,...jk->...ik', [(3, 2, 2, 3), (3, 3, 4)],
       syntax='numpy'),
    _e('einsum', 'numpy-diagonal-mismatch', 'shape', 'ii->i', [(2, 3)], syntax='numpy'),
    _e('einsum', 'numpy-one-tensor', 'shape', 'ij,jk->ik', [(2, 3)], syntax='numpy'),
    _e('einsum', 'numpy-four-tensors', 'shape', 'ij,jk,kl->il', [(2, 3), (3, 2), (2, 2), (2, 2)],
       syntax='numpy'),
    _e('einsum', 'numpy-wrong-ndim', 'shape', 'ij,jk', [(2, 3, 4), (3, 4)], syntax='numpy'),
    _e('einsum', 'numpy-dot-mismatch', 'shape', 'i,i->', [(3,), (4,)], syntax='numpy'),
    # ---------------- pack: syntax
    _e('pack', 'no-star', 'syntax', 'b c', [(2, 3), (2, 3)]),
    _e('pack', 'two-stars', 'syntax', 'b * * c', [(2, 3, 2, 2)]),
    _e('pack', 'star-glued-to-name', 'syntax', 'h w*', [(2, 3, 4)]),
    _e('pack', 'ellipsis', 'syntax', 'b ... *', [(2, 3, 2)]),
    _e('pack', 'composition', 'syntax', 'b (c d) *', [(2, 6, 2)]),
    _e('pack', 'anonymous', 'syntax', 'b 2 *', [(2, 2, 3)]),
    _e('pack', 'duplicate', 'syntax', 'b b *', [(2, 2, 3)]),
    _e('pack', 'underscore-name', 'syntax', '_b *', [(2, 3)]),
    # ---------------- pack: shape
    _e('pack', 'too-few-dims', 'shape', 'b * c', [(2, 3, 4), (3,)]),
    _e('pack', 'too-few-dims-two-before', 'shape', 'a b *', [(2,)]),
    _e('pack', 'mismatch-before', 'shape', 'b * c', [(2, 3, 4), (3, 3, 4)]),
    _e('pack', 'mismatch-after', 'shape', 'b * c', [(2, 3, 4), (2, 3, 5)]),
    _e('pack', 'mismatch-star-c', 'shape', '* c', [(2, 3), (2, 4)]),
    # ---------------- unpack: syntax
    _e('unpack', 'no-star', 'syntax', 'b c', [(2, 3)], packed_shapes=[[1], [2]]),
    _e('unpack', 'two-stars', 'syntax', '* b *', [(2, 3, 2)], packed_shapes=[[2]]),
    _e('unpack', 'ellipsis', 'syntax', '... *', [(2, 3)], packed_shapes=[[3]]),
    _e('unpack', 'composition', 'syntax', '(b c) *', [(6, 3)], packed_shapes=[[3]]),
    _e('unpack', 'anonymous', 'syntax', '* 3', [(2, 3)], packed_shapes=[[2]]),
    _e('unpack', 'duplicate', 'syntax', 'c * c', [(2, 3, 2)], packed_shapes=[[3]]),
    _e('unpack', 'name-starts-with-digit', 'syntax', '2b *', [(2, 3)], packed_shapes=[[3]]),
    # ---------------- unpack: shape
    _e('unpack', 'total-mismatch', 'shape', 'b * c', [(2, 5, 3)], packed_shapes=[[2], [2]]),
    _e('unpack', 'total-mismatch-composed', 'shape', 'b *', [(2, 5)], packed_shapes=[[2, 2], [2]]),
    _e('unpack', 'two-minus-one', 'shape', 'b * c', [(2, 5, 3)], packed_shapes=[[-1], [-1]]),
    _e('unpack', 'two-minus-one-composed', 'shape', '* c', [(6, 2)], packed_shapes=[[2, -1], [-1]]),
    _e('unpack', 'two-minus-one-same-shape', 'shape', 'b *', [(2, 6)], packed_shapes=[[-1, -1]]),
    _e('unpack', 'infer-negative', 'shape', 'b * c', [(2, 5, 3)], packed_shapes=[[-1], [6]]),
    _e('unpack', 'infer-not-divisible', 'shape', 'b * c', [(2, 5, 3)], packed_shapes=[[2, -1], [2]]),
    _e('unpack', 'too-few-dims', 'shape', 'b *', [(2,)], packed_shapes=[[2]]),
    _e('unpack', 'too-many-dims', 'shape', 'b *', [(2, 3, 2)], packed_shapes=[[3]]),
]


def gen_errors(rng):
    cases = []
    for i, (name, kind, spec, shapes) in enumerate(ERRORS):
        dtype = DTYPES[i % 2]
        cases.append(make_error(rng, '%s/%s-%s' % (spec['op'], kind, name), spec, shapes, dtype, kind))
    return cases


# ----------------------------------------------------------------- int32 / bool (integer.json)
# Pattern ops on int32 and bool tensors.  Reference: einops on torch int32 / bool tensors
# (torch.einsum on int64 for einsum), outputs cast to the ein4j output dtype: int32 for
# int32 inputs; for bool inputs bool, except reduce sum / prod, which count / multiply
# and give int32.  No mean (ein4j has no integer mean), no gradients.  Values are small
# so that no result leaves the int32 range (checked).

def int_values(rng, shape, dtype, lo=-1000, hi=1000):
    if dtype == 'bool':
        return rng.integers(0, 2, size=shape).astype(np.float64)
    return rng.integers(lo, hi + 1, size=shape).astype(np.float64)


def int_out_dtype(spec, in_dtype):
    if in_dtype == 'int32':
        return 'int32'
    if spec['op'] == 'reduce' and spec['reduction'] in ('sum', 'prod'):
        return 'int32'
    return 'bool'


def reference_int(spec, inputs, in_dtype):
    """Reference for int32 / bool inputs; returns (outputs as float64 integer arrays,
    packed_shapes, output dtype)."""
    if spec['op'] == 'reduce' and spec['reduction'] == 'mean':
        raise ValueError('no integer mean')
    if spec['op'] == 'einsum':
        tdt = torch.int64
    else:
        tdt = torch.int32 if in_dtype == 'int32' else torch.bool
    ts = [torch.tensor(np.asarray(a, dtype=np.float64).astype(np.int64)).to(tdt) for a in inputs]
    outs, ps = forward(spec, ts)
    odt = int_out_dtype(spec, in_dtype)
    res = []
    for o in outs:
        if odt == 'bool':
            assert o.dtype == torch.bool, (spec, o.dtype)
        else:
            # a bool sum / prod that reduces no axis comes back from einops unchanged (bool);
            # ein4j still gives int32 (0 / 1) there
            assert not o.dtype.is_floating_point, (spec, o.dtype)
        v = o.to(torch.int64).numpy()
        assert v.size == 0 or (v.min() >= INT32_MIN and v.max() <= INT32_MAX), 'int32 overflow'
        res.append(v.astype(np.float64))
    return res, ps, odt


def make_int_case(cid, spec, inputs, dtype):
    plan_for(spec, inputs)  # must be valid under the ein4j rules
    outs, ps, odt = reference_int(spec, inputs, dtype)
    case = {'id': cid, 'op': spec['op']}
    if 'syntax' in spec:
        case['syntax'] = spec['syntax']
    case['pattern'] = spec['pattern']
    if spec.get('axes'):
        case['axes'] = dict(spec['axes'])
    if 'reduction' in spec:
        case['reduction'] = spec['reduction']
    case['inputs'] = [enc_tensor(a, dtype) for a in inputs]
    if spec['op'] == 'unpack':
        case['packed_shapes'] = [list(p) for p in spec['packed_shapes']]
    case['expected'] = {'outputs': [enc_tensor(o, odt) for o in outs]}
    if spec['op'] == 'pack':
        case['expected']['packed_shapes'] = ps
    return case


def _pick(table, names):
    by_name = {row[0]: row for row in table}
    return [by_name[n] for n in names]


INT_DTYPES_ORDER = ('int32', 'bool')
INT_REARRANGE = _pick(REARRANGE, ['transpose', 'permute3', 'split-and-merge', 'space-to-depth', 'ellipsis-middle',
                                  'unit-left-1', 'flatten', 'batch-to-space', 'zero-size-merge', 'scalar-to-unit'])
INT_REDUCE = _pick(REDUCE, ['rows', 'cols', 'all-to-scalar', 'middle', 'pool2x2', 'ellipsis-middle-reduced',
                            'keepdim-1', 'composition-left', 'anonymous-left', 'no-reduced-axes'])
INT_REDUCTIONS = {'int32': ('sum', 'max', 'min', 'prod'), 'bool': ('max', 'min', 'sum', 'prod')}
INT_REPEAT = _pick(REPEAT, ['new-axis-last', 'anonymous-in-compositions', 'repeat-inner', 'scalar-input',
                            'ellipsis-middle', 'upsample', 'unit-left-parens'])
INT_PACK = _pick(PACK, ['b-star-c', 'star-only', 'zero-size-part', 'mixed-ranks'])
INT_UNPACK = _pick(UNPACK, ['b-star-c-infer', 'star-c-infer-first', 'b-star-zero-part', 'all-parts-zero'])
INT_EINSUM = _pick(EINSUM, ['matmul', 'attention-scores', 'trace', 'diagonal', 'batch-diagonal', 'outer', 'chain3',
                            'dot3', 'hadamard', 'sum-all', 'ellipsis-start', 'input-composition',
                            'output-composition', 'unit-1-input', 'anonymous-input', 'linear-layer'])
INT_EINSUM_NUMPY = _pick(EINSUM_NUMPY, ['matmul', 'matmul-implicit', 'trace', 'batch-diagonal', 'broadcast-batch',
                                        'broadcast-rank', 'chain4', 'dot-implicit', 'ellipsis-dot', 'uppercase'])


def gen_integer(rng):
    cases = []
    for name, pattern, shape, axes in INT_REARRANGE:
        for dtype in INT_DTYPES_ORDER:
            x = int_values(rng, shape, dtype)
            cases.append(make_int_case('rearrange/%s-%s' % (name, dt_short(dtype)),
                                       {'op': 'rearrange', 'pattern': pattern, 'axes': axes}, [x], dtype))
    x = with_specials(int_values(rng, (3, 4), 'int32'),
                      {(0, 1): INT32_MIN, (1, 2): INT32_MAX, (2, 0): -1, (2, 3): 0})
    cases.append(make_int_case('rearrange/int32-extremes-i32',
                               {'op': 'rearrange', 'pattern': 'a (b c) -> (c a) b', 'axes': {'b': 2}}, [x], 'int32'))
    for name, pattern, shape, axes in INT_REDUCE:
        for dtype in INT_DTYPES_ORDER:
            for red in INT_REDUCTIONS[dtype]:
                lo, hi = (-3, 3) if red == 'prod' else (-50, 50)
                x = int_values(rng, shape, dtype, lo, hi)
                cases.append(make_int_case('reduce/%s-%s-%s' % (red, name, dt_short(dtype)),
                                           {'op': 'reduce', 'pattern': pattern, 'reduction': red, 'axes': axes},
                                           [x], dtype))
    x = with_specials(int_values(rng, (2, 3), 'int32'), {(0, 1): INT32_MIN, (1, 2): INT32_MAX})
    for red in ('max', 'min'):
        cases.append(make_int_case('reduce/%s-int32-extremes-i32' % red,
                                   {'op': 'reduce', 'pattern': 'a b -> b', 'reduction': red}, [x], 'int32'))
    x = np.array([[1, 1, 1], [1, 0, 1], [0, 0, 0]], dtype=np.float64)
    for red in ('max', 'min', 'sum', 'prod'):
        cases.append(make_int_case('reduce/%s-all-any-rows-bool' % red,
                                   {'op': 'reduce', 'pattern': 'a b -> a', 'reduction': red}, [x], 'bool'))
    for name, pattern, shape, axes in INT_REPEAT:
        for dtype in INT_DTYPES_ORDER:
            x = int_values(rng, shape, dtype)
            cases.append(make_int_case('repeat/%s-%s' % (name, dt_short(dtype)),
                                       {'op': 'repeat', 'pattern': pattern, 'axes': axes}, [x], dtype))
    for name, pattern, shapes in INT_PACK:
        for dtype in INT_DTYPES_ORDER:
            xs = [int_values(rng, s, dtype) for s in shapes]
            cases.append(make_int_case('pack/%s-%s' % (name, dt_short(dtype)),
                                       {'op': 'pack', 'pattern': pattern}, xs, dtype))
    for name, pattern, shape, pshapes in INT_UNPACK:
        for dtype in INT_DTYPES_ORDER:
            x = int_values(rng, shape, dtype)
            cases.append(make_int_case('unpack/%s-%s' % (name, dt_short(dtype)),
                                       {'op': 'unpack', 'pattern': pattern, 'packed_shapes': pshapes}, [x], dtype))
    for name, pattern, shapes in INT_EINSUM:
        xs = [int_values(rng, s, 'int32', -4, 4) for s in shapes]
        cases.append(make_int_case('einsum/%s-i32' % name, {'op': 'einsum', 'pattern': pattern}, xs, 'int32'))
    for name, pattern, shapes in INT_EINSUM_NUMPY:
        xs = [int_values(rng, s, 'int32', -4, 4) for s in shapes]
        cases.append(make_int_case('einsum-numpy/%s-i32' % name,
                                   {'op': 'einsum', 'syntax': 'numpy', 'pattern': pattern}, xs, 'int32'))
    return cases


# ----------------------------------------------------------------- writing

FILES = [
    ('rearrange.json', 'rearrange', gen_rearrange),
    ('reduce.json', 'reduce', gen_reduce),
    ('repeat.json', 'repeat', gen_repeat),
    ('einsum.json', 'einsum', gen_einsum),
    ('einsum_numpy.json', 'einsum_numpy', gen_einsum_numpy),
    ('pack.json', 'pack', gen_pack),
    ('errors.json', 'errors', gen_errors),
    ('integer.json', 'integer', gen_integer),
]


def dump_fixture(path, cases):
    head = {'format': FORMAT, 'generator': generator_string()}
    lines = ['{',
             '  "format": %s,' % json.dumps(head['format']),
             '  "generator": %s,' % json.dumps(head['generator']),
             '  "cases": [']
    body = [json.dumps(c, ensure_ascii=True, allow_nan=False, separators=(', ', ': ')) for c in cases]
    lines.append(',\n'.join('    ' + b for b in body))
    lines.append('  ]')
    lines.append('}')
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=FIXTURES_DIR, help='output folder (default: %(default)s)')
    ap.add_argument('--no-check', action='store_true', help='skip running check_fixtures.py afterwards')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for fname, key, gen in FILES:
        rng = np.random.default_rng(SEEDS[key])
        cases = gen(rng)
        ids = [c['id'] for c in cases]
        assert len(ids) == len(set(ids)), 'duplicate ids in ' + fname
        dump_fixture(os.path.join(args.out, fname), cases)
        print('wrote %-18s %4d cases' % (fname, len(cases)))
    if not args.no_check:
        import check_fixtures
        return check_fixtures.main([args.out])
    return 0


if __name__ == '__main__':
    sys.exit(main())
