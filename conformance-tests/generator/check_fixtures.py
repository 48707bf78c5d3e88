#!/usr/bin/env python3
"""Self-check of the ein4j conformance fixtures.

    python3 conformance-tests/generator/check_fixtures.py [FOLDER_OR_FILE ...]

Re-reads every fixture file and checks
  * the document and case structure against ein4j-conformance/1 (field names,
    TENSOR encoding, data length == product of shape, ids unique, ...);
  * error cases: a valid KIND, the ein4j rules (ein4j_ref) give exactly that
    KIND, and the reference libraries (einops / numpy / torch) reject the call
    too (known, documented divergences are listed, not failed);
  * non-error cases: the reference computation (generate_fixtures.reference)
    on the decoded inputs reproduces expected outputs, packed shapes and
    gradients bit for bit after rounding to the case dtype; an independent
    recomputation (brute force / numpy.einsum / einops on numpy / plain numpy
    pack) agrees within a tenth of the case tolerance; every gradient passes a
    finite-difference directional-derivative test; max/min inputs are tie-free.
  * int32 / bool cases (integer.json): output dtype by the ein4j rule, no gradients,
    exact recomputation and exact brute-force / einops-on-numpy / numpy.einsum results;
  * files with `function` cases (functions.json, layers.json) are handed to
    check_functions.py.
Prints counts per file, per op, per dtype and per error kind; exits 1 on any problem.
"""
import collections
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
import generate_fixtures as G  # noqa: E402

OPS = ('rearrange', 'reduce', 'repeat', 'einsum', 'pack', 'unpack')
CASE_KEYS = {'id', 'op', 'syntax', 'pattern', 'axes', 'reduction', 'inputs', 'packed_shapes',
             'expected', 'grad', 'rtol', 'atol', 'grad_rtol', 'grad_atol'}
FILE_RULES = {
    'rearrange.json': lambda c: c['op'] == 'rearrange' and 'outputs' in c['expected'],
    'reduce.json': lambda c: c['op'] == 'reduce' and 'outputs' in c['expected'],
    'repeat.json': lambda c: c['op'] == 'repeat' and 'outputs' in c['expected'],
    'einsum.json': lambda c: (c['op'] == 'einsum' and c.get('syntax', 'einops') == 'einops'
                              and 'outputs' in c['expected']),
    'einsum_numpy.json': lambda c: (c['op'] == 'einsum' and c.get('syntax') == 'numpy'
                                    and 'outputs' in c['expected']),
    'pack.json': lambda c: c['op'] in ('pack', 'unpack') and 'outputs' in c['expected'],
    'errors.json': lambda c: 'error' in c['expected'],
    'integer.json': lambda c: (c['op'] in OPS and 'outputs' in c['expected']
                               and c['inputs'][0]['dtype'] in G.INT_DTYPES),
}


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, msg):
        self.items.append('%s: %s' % (where, msg))


# ----------------------------------------------------------------- structure

def check_tensor(t, where, P):
    if not isinstance(t, dict) or set(t) != {'shape', 'dtype', 'data'}:
        P.add(where, 'tensor must have exactly shape, dtype, data')
        return False
    shape, dtype, data = t['shape'], t['dtype'], t['data']
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                              for d in shape):
        P.add(where, 'bad shape %r' % (shape,))
        return False
    if dtype not in ('float32', 'float64', 'int32', 'bool'):
        P.add(where, 'bad dtype %r' % (dtype,))
        return False
    if not isinstance(data, list) or len(data) != math.prod(shape):
        P.add(where, 'data length %s != product of shape %r' % (len(data) if isinstance(data, list) else '?',
                                                                 shape))
        return False
    if dtype in G.INT_DTYPES:
        lo, hi = (0, 1) if dtype == 'bool' else (G.INT32_MIN, G.INT32_MAX)
        for v in data:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                P.add(where, 'bad %s value %r' % (dtype, v))
                return False
        return True
    for v in data:
        if isinstance(v, str):
            if v not in ('nan', 'inf', '-inf'):
                P.add(where, 'bad string value %r' % v)
                return False
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            P.add(where, 'bad value %r' % (v,))
            return False
        elif dtype == 'float32' and G.enc_value(float(v), 'float32') != float(v):
            P.add(where, 'float32 value %r is not the canonical shortest decimal of its float32' % (v,))
            return False
    return True


def check_structure(c, fname, P):
    where = '%s:%s' % (fname, c.get('id'))
    ok = True
    unknown = set(c) - CASE_KEYS
    if unknown:
        P.add(where, 'unknown fields %s' % sorted(unknown))
    if not isinstance(c.get('id'), str) or not c['id']:
        P.add(where, 'missing id')
        ok = False
    if c.get('op') not in OPS:
        P.add(where, 'bad op %r' % c.get('op'))
        return False
    op = c['op']
    if not isinstance(c.get('pattern'), str):
        P.add(where, 'missing pattern')
        ok = False
    if ('reduction' in c) != (op == 'reduce') or (op == 'reduce' and c['reduction'] not in ref.REDUCTIONS):
        P.add(where, 'reduction must be present exactly for reduce and be one of %s' % (ref.REDUCTIONS,))
        ok = False
    if 'syntax' in c and (op != 'einsum' or c['syntax'] not in ('einops', 'numpy')):
        P.add(where, 'bad syntax field')
        ok = False
    if ('packed_shapes' in c) != (op == 'unpack'):
        P.add(where, 'packed_shapes must be present exactly for unpack')
        ok = False
    if 'packed_shapes' in c and not (isinstance(c['packed_shapes'], list) and all(
            isinstance(p, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in p)
            for p in c['packed_shapes'])):
        P.add(where, 'packed_shapes must be a list of lists of ints')
        ok = False
    if 'axes' in c and not (isinstance(c['axes'], dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
            for k, v in c['axes'].items())):
        P.add(where, 'axes must map names to positive ints')
        ok = False
    for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol'):
        if k in c and not (isinstance(c[k], (int, float)) and c[k] > 0):
            P.add(where, '%s must be a positive number' % k)
            ok = False
    if not isinstance(c.get('inputs'), list) or not c['inputs']:
        P.add(where, 'inputs must be a non-empty list')
        return False
    if op in ('rearrange', 'reduce', 'repeat', 'unpack') and len(c['inputs']) != 1 and 'outputs' in c['expected']:
        P.add(where, '%s takes one input' % op)
        ok = False
    for i, t in enumerate(c['inputs']):
        ok &= check_tensor(t, '%s inputs[%d]' % (where, i), P)
    exp = c.get('expected')
    if not isinstance(exp, dict) or (('outputs' in exp) == ('error' in exp)):
        P.add(where, 'expected must hold outputs or error')
        return False
    dtypes = {t['dtype'] for t in c['inputs'] if isinstance(t, dict) and 'dtype' in t}
    if 'error' in exp:
        if exp['error'] not in ('syntax', 'shape', 'any'):
            P.add(where, 'bad error kind %r' % exp['error'])
            ok = False
        if set(exp) != {'error'} or 'grad' in c:
            P.add(where, 'error case with outputs/grad/packed_shapes in expected')
            ok = False
        return ok
    outs = exp['outputs']
    n_out = len(c['packed_shapes']) if op == 'unpack' else 1
    if not isinstance(outs, list) or len(outs) != n_out:
        P.add(where, 'expected %d outputs' % n_out)
        return False
    for i, t in enumerate(outs):
        ok &= check_tensor(t, '%s outputs[%d]' % (where, i), P)
        dtypes.add(t.get('dtype'))
    if op == 'pack':
        ps = exp.get('packed_shapes')
        if not (isinstance(ps, list) and len(ps) == len(c['inputs'])):
            P.add(where, 'pack needs expected.packed_shapes, one per input')
            ok = False
    elif set(exp) != {'outputs'}:
        P.add(where, 'unexpected fields in expected')
    in_dtypes = {t.get('dtype') for t in c['inputs'] if isinstance(t, dict)}
    if in_dtypes & set(G.INT_DTYPES):
        # int32 / bool cases: one input dtype, outputs of the ein4j output dtype, no gradients
        if len(in_dtypes) != 1:
            P.add(where, 'mixed input dtypes %s' % sorted(in_dtypes))
            return False
        in_dt = in_dtypes.pop()
        if op == 'reduce' and c['reduction'] == 'mean':
            P.add(where, 'no mean on %s' % in_dt)
            ok = False
        want = G.int_out_dtype(spec_of(c), in_dt)
        if any(t.get('dtype') != want for t in outs):
            P.add(where, 'output dtype must be %s' % want)
            ok = False
        if 'grad' in c or any(k in c for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol')):
            P.add(where, 'integer cases have no gradients and no tolerances')
            ok = False
        return ok
    if 'grad' in c:
        g = c['grad']
        if not (isinstance(g, dict) and set(g) == {'upstream', 'inputs'}
                and len(g['upstream']) == len(outs) and len(g['inputs']) == len(c['inputs'])):
            P.add(where, 'grad must hold one upstream per output and one gradient per input')
            return False
        for i, (u, o) in enumerate(zip(g['upstream'], outs)):
            ok &= check_tensor(u, '%s grad.upstream[%d]' % (where, i), P)
            if ok and u['shape'] != o['shape']:
                P.add(where, 'upstream %d shape != output shape' % i)
                ok = False
        for i, (gi, t) in enumerate(zip(g['inputs'], c['inputs'])):
            ok &= check_tensor(gi, '%s grad.inputs[%d]' % (where, i), P)
            if ok and gi['shape'] != t['shape']:
                P.add(where, 'gradient %d shape != input shape' % i)
                ok = False
            dtypes.add(gi.get('dtype'))
    if len(dtypes) != 1:
        P.add(where, 'mixed dtypes %s' % sorted(dtypes))
        ok = False
    return ok


# ----------------------------------------------------------------- helpers

def spec_of(c):
    return {k: c[k] for k in ('op', 'pattern', 'syntax', 'axes', 'reduction', 'packed_shapes') if k in c}


def tolerances(c):
    dtype = c['inputs'][0]['dtype']
    rtol0, atol0 = G.DEFAULT_TOL[dtype]
    rtol, atol = c.get('rtol', rtol0), c.get('atol', atol0)
    return rtol, atol, c.get('grad_rtol', rtol), c.get('grad_atol', atol)


def identical(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return (a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
            and np.array_equal(np.signbit(a), np.signbit(b)))


def np_pack(pattern, arrays):
    n_before, n_after = ref.pack_axes(pattern)
    parts, shapes = [], []
    for a in arrays:
        mid = a.shape[n_before:a.ndim - n_after]
        shapes.append(list(mid))
        parts.append(a.reshape(a.shape[:n_before] + (math.prod(mid),) + a.shape[a.ndim - n_after:]))
    return np.concatenate(parts, axis=n_before), shapes


def np_unpack(pattern, a, packed_shapes):
    n_before, n_after = ref.pack_axes(pattern)
    shapes = ref.resolve_packed_shapes(pattern, a.shape, packed_shapes)
    outs, start = [], 0
    for s in shapes:
        n = math.prod(s)
        part = np.take(a, np.arange(start, start + n), axis=n_before)
        outs.append(part.reshape(a.shape[:n_before] + tuple(s) + a.shape[a.ndim - n_after:]))
        start += n
    return outs


def independent_forward(c, inputs, dtype=np.float64):
    """Outputs computed without torch and without the generator's code path."""
    op, spec = c['op'], spec_of(c)
    if op == 'pack':
        packed, _ = np_pack(c['pattern'], inputs)
        return [packed]
    if op == 'unpack':
        return np_unpack(c['pattern'], inputs[0], c['packed_shapes'])
    plan = G.plan_for(spec, inputs)
    return [ref.bf_eval(plan, inputs, dtype)]


def second_opinions(c, inputs):
    """Further outputs from numpy.einsum / einops on numpy, where they apply."""
    op, pattern, axes = c['op'], c['pattern'], c.get('axes') or {}
    res = []
    if op == 'rearrange':
        res.append(('einops-numpy', [einops.rearrange(inputs[0], pattern, **axes)]))
    elif op == 'reduce':
        res.append(('einops-numpy', [einops.reduce(inputs[0], pattern, c['reduction'], **axes)]))
    elif op == 'repeat':
        res.append(('einops-numpy', [einops.repeat(inputs[0], pattern, **axes)]))
    elif op == 'einsum' and c.get('syntax') == 'numpy':
        res.append(('numpy.einsum', [np.einsum(pattern, *inputs, optimize=False)]))
    elif op == 'einsum':
        if '(' not in pattern and not any(t.isdigit() for t in pattern.replace(',', ' ').split()):
            try:
                res.append(('einops.einsum', [einops.einsum(*inputs, pattern)]))
            except Exception:
                pass
    elif op == 'pack':
        packed, ps = einops.pack(list(inputs), pattern)
        res.append(('einops-numpy', [packed]))
    elif op == 'unpack':
        res.append(('einops-numpy', list(einops.unpack(inputs[0], c['packed_shapes'], pattern))))
    return res


def directional_check(c, inputs, upstream, grads, rng):
    """Central differences of sum_k <out_k(x), up_k> along random directions."""
    if all(np.size(a) == 0 for a in inputs):
        return None
    red = c.get('reduction')
    h = 1e-4
    if red in ('max', 'min'):
        vals = np.unique(np.concatenate([np.ravel(a) for a in inputs]))
        gap = np.min(np.diff(vals)) if vals.size > 1 else 1.0
        h = gap / 10.0
    elif c['op'] in ('rearrange', 'repeat', 'pack', 'unpack') or red in ('sum', 'mean'):
        h = 1.0
    elif red == 'prod':
        h = 1e-6  # two zeros in one group make the O(h^2) term visible at 1e-4

    def f(xs):
        outs = independent_forward(c, xs)
        return sum(float(np.sum(o * u)) for o, u in zip(outs, upstream))

    worst = 0.0
    for _ in range(3):
        vs = [rng.standard_normal(np.shape(a)) for a in inputs]
        fd = (f([a + h * v for a, v in zip(inputs, vs)]) - f([a - h * v for a, v in zip(inputs, vs)])) / (2 * h)
        an = sum(float(np.sum(g * v)) for g, v in zip(grads, vs))
        scale = sum(float(np.sum(np.abs(g * v))) for g, v in zip(grads, vs)) + 1e-3
        worst = max(worst, abs(fd - an) / scale)
    return worst


def check_int_case(c, where, spec, inputs, dtype, P):
    """int32 / bool case: exact recomputation, exact independent recomputations."""
    exp = [G.dec_tensor(t)[0] for t in c['expected']['outputs']]
    outs, ps, odt = G.reference_int(spec, inputs, dtype)
    for i, (o, e) in enumerate(zip(outs, exp)):
        if o.shape != e.shape or not np.array_equal(o, e):
            P.add(where, 'output %d does not recompute identically' % i)
    if c['op'] == 'pack' and ps != c['expected']['packed_shapes']:
        P.add(where, 'packed_shapes %r != recomputed %r' % (c['expected']['packed_shapes'], ps))
    ints = [np.asarray(a).astype(np.int64) for a in inputs]
    opinions = [('brute-force/numpy', independent_forward(c, ints, np.int64))] + second_opinions(c, ints)
    for name, res in opinions:
        if len(res) != len(exp):
            P.add(where, '%s gives %d outputs' % (name, len(res)))
            continue
        for i, (o, e) in enumerate(zip(res, exp)):
            o = np.asarray(o).astype(np.int64)
            if odt == 'bool':
                o = (o != 0).astype(np.int64)
            if o.shape != e.shape or not np.array_equal(o, e.astype(np.int64)):
                P.add(where, '%s output %d differs' % (name, i))


# ----------------------------------------------------------------- error cases

def reference_rejects(c, inputs):
    """(applicable, rejected, message) for the reference libraries."""
    op, pattern, axes = c['op'], c['pattern'], c.get('axes') or {}

    def raises(fn):
        try:
            fn()
            return False, 'accepted'
        except Exception as e:  # any rejection counts
            return True, '%s: %s' % (type(e).__name__, str(e).splitlines()[0][:80] if str(e) else '')

    if op == 'rearrange':
        return (True,) + raises(lambda: einops.rearrange(inputs[0], pattern, **axes))
    if op == 'reduce':
        return (True,) + raises(lambda: einops.reduce(inputs[0], pattern, c['reduction'], **axes))
    if op == 'repeat':
        return (True,) + raises(lambda: einops.repeat(inputs[0], pattern, **axes))
    if op == 'pack':
        return (True,) + raises(lambda: einops.pack(list(inputs), pattern))
    if op == 'unpack':
        return (True,) + raises(lambda: [np.asarray(p) for p in einops.unpack(inputs[0], c['packed_shapes'],
                                                                               pattern)])
    if c.get('syntax') == 'numpy':
        r1 = raises(lambda: np.einsum(pattern, *inputs))
        r2 = raises(lambda: torch.einsum(pattern, *[torch.tensor(a) for a in inputs]))
        return True, r1[0] and r2[0], 'numpy: %s | torch: %s' % (r1[1], r2[1])
    return True, raises(lambda: einops.einsum(*inputs, pattern))[0], 'einops.einsum'


# ----------------------------------------------------------------- main

def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith('.json')]
        else:
            files.append(p)
    return files


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    files = collect(argv or [G.FIXTURES_DIR])
    P = Problems()
    rng = np.random.default_rng(12345)
    per_file = collections.OrderedDict()
    per_op = collections.Counter()
    per_dtype = collections.Counter()
    err_kind = collections.Counter()
    err_op_kind = collections.Counter()
    features = collections.Counter()
    divergences = []
    all_ids = set()
    total_cases = 0
    fsum = None
    for path in files:
        fname = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
        if any(isinstance(c, dict) and c.get('op') == 'function' for c in doc.get('cases', [])):
            # `function` cases (functions.json, layers.json): checked by check_functions.py
            import check_functions
            fsum = fsum or check_functions.Summary()
            check_functions.check_doc(fname, doc, P, fsum, all_ids, rng)
            per_file[fname] = fsum.per_file[fname]
            total_cases += per_file[fname][0]
            continue
        if doc.get('format') != G.FORMAT:
            P.add(fname, 'format must be %s' % G.FORMAT)
        gen = doc.get('generator', '')
        for lib in ('numpy ' + np.__version__, 'einops ' + einops.__version__, 'torch ' + torch.__version__):
            if lib not in gen:
                P.add(fname, 'generator string does not name %s' % lib)
        cases = doc.get('cases', [])
        ids = [c.get('id') for c in cases]
        dup = [i for i, n in collections.Counter(ids).items() if n > 1]
        if dup:
            P.add(fname, 'duplicate ids %s' % dup)
        rule = FILE_RULES.get(fname)
        n_err = 0
        for c in cases:
            total_cases += 1
            where = '%s:%s' % (fname, c.get('id'))
            if c.get('id') in all_ids:
                P.add(where, 'id also used in another file')
            all_ids.add(c.get('id'))
            if not check_structure(c, fname, P):
                continue
            if rule is not None and not rule(c):
                P.add(where, 'case does not belong in %s' % fname)
            op = c['op']
            dtype = c['inputs'][0]['dtype']
            inputs = [G.dec_tensor(t)[0] for t in c['inputs']]
            shapes = [tuple(a.shape) for a in inputs]
            key = op if op != 'einsum' else 'einsum(%s)' % c.get('syntax', 'einops')
            per_dtype[dtype] += 1
            spec = spec_of(c)
            if 'error' in c['expected']:
                n_err += 1
                kind = c['expected']['error']
                err_kind[kind] += 1
                err_op_kind[(key, kind)] += 1
                d = dict(spec)
                d['shapes'] = shapes
                try:
                    ref.plan_case(d)
                    got = None
                except ref.PatternError as e:
                    got = e.kind
                if got != kind and kind != 'any':
                    P.add(where, 'tagged %s, ein4j rules say %s' % (kind, got))
                applicable, rejected, msg = reference_rejects(c, inputs)
                if applicable and not rejected:
                    divergences.append('%s (%s): reference accepts [%s]' % (where, kind, msg))
                    if op != 'einsum' and all(ord(ch) < 128 for ch in c['pattern']):
                        P.add(where, 'einops accepts a call tagged as an error')
                continue
            per_op[key] += 1
            # ---- validity under the ein4j rules
            d = dict(spec)
            d['shapes'] = shapes
            try:
                ref.plan_case(d)
            except ref.PatternError as e:
                P.add(where, 'valid case rejected by the ein4j rules: %s' % e)
                continue
            if dtype in G.INT_DTYPES:
                check_int_case(c, where, spec, inputs, dtype, P)
                features['int32/bool cases'] += 1
                continue
            rtol, atol, grtol, gatol = tolerances(c)
            exp = [G.dec_tensor(t)[0] for t in c['expected']['outputs']]
            upstream = [G.dec_tensor(t)[0] for t in c['grad']['upstream']] if 'grad' in c else None
            exp_grads = [G.dec_tensor(t)[0] for t in c['grad']['inputs']] if 'grad' in c else None
            # ---- bit-identical recomputation with the generator's reference
            outs, ps, grads = G.reference(spec, inputs, 'float64', upstream)
            for i, (o, e) in enumerate(zip(outs, exp)):
                if not identical(G.round_to(o, dtype), e):
                    P.add(where, 'output %d does not recompute identically' % i)
            if op == 'pack' and ps != c['expected']['packed_shapes']:
                P.add(where, 'packed_shapes %r != recomputed %r' % (c['expected']['packed_shapes'], ps))
            if grads is not None:
                for i, (g, e) in enumerate(zip(grads, exp_grads)):
                    if not identical(G.round_to(g, dtype), e):
                        P.add(where, 'gradient %d does not recompute identically' % i)
            # ---- independent recomputation
            opinions = [('brute-force/numpy', independent_forward(c, inputs))] + second_opinions(c, inputs)
            for name, res in opinions:
                if len(res) != len(exp):
                    P.add(where, '%s gives %d outputs' % (name, len(res)))
                    continue
                for i, (o, e) in enumerate(zip(res, exp)):
                    v = G.violation(G.round_to(o, dtype), e, rtol, atol)
                    if v > 0.1:
                        P.add(where, '%s output %d off by %.3g of the tolerance' % (name, i, v))
            if op == 'pack':
                _, ps2 = np_pack(c['pattern'], inputs)
                if ps2 != c['expected']['packed_shapes']:
                    P.add(where, 'packed_shapes differ from numpy pack')
            # ---- gradients
            if exp_grads is not None:
                plan = G.plan_for(spec, inputs)
                if plan is not None and plan.combine in ('sum', 'mean'):
                    for i, (g, e) in enumerate(zip(ref.bf_grad(plan, inputs, upstream[0]), exp_grads)):
                        v = G.violation(G.round_to(g, dtype), e, grtol, gatol)
                        if v > 0.1:
                            P.add(where, 'brute-force gradient %d off by %.3g of the tolerance' % (i, v))
                w = directional_check(c, inputs, upstream, exp_grads, rng)
                if w is not None and w > 1e-5:
                    P.add(where, 'gradient fails the directional-derivative test (%.3g)' % w)
            # ---- case properties
            if c.get('reduction') in ('max', 'min'):
                a = inputs[0]
                if np.unique(a).size != a.size:
                    P.add(where, 'max/min input has ties')
            if c.get('reduction') == 'prod' and (inputs[0] == 0).any():
                features['prod with exact zeros'] += 1
                if (inputs[0] == 0).sum() >= 2:
                    features['prod with two or more zeros'] += 1
            if 'grad' in c:
                features['with grad'] += 1
            if any(not np.isfinite(a).all() for a in inputs):
                features['with nan/inf inputs'] += 1
            if any(a.size == 0 for a in inputs) or any(e.size == 0 for e in exp):
                features['with zero-size tensors'] += 1
            if any(e.ndim == 0 for e in exp):
                features['with scalar outputs'] += 1
            if op == 'unpack' and any(-1 in p for p in c['packed_shapes']):
                features['unpack with -1'] += 1
            if any(k in c for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol')):
                features['with explicit tolerances'] += 1
        per_file[fname] = (len(cases), n_err)

    print('%-20s %6s %6s' % ('file', 'cases', 'errors'))
    for fname, (n, e) in per_file.items():
        print('%-20s %6d %6d' % (fname, n, e))
    print('%-20s %6d %6d' % ('TOTAL', total_cases, sum(e for _, e in per_file.values())))
    print('\nnon-error cases per op:')
    for k, n in sorted(per_op.items()):
        print('  %-18s %4d' % (k, n))
    print('\nerror cases per op and kind:')
    for (k, kind), n in sorted(err_op_kind.items()):
        print('  %-18s %-7s %4d' % (k, kind, n))
    print('  by kind: %s' % dict(sorted(err_kind.items())))
    print('\ncases per dtype: %s' % dict(sorted(per_dtype.items())))
    print('features: %s' % dict(sorted(features.items())))
    if fsum is not None:
        print('\n---- function cases (check_functions.py)')
        fsum.print()
    if divergences:
        print('\nerror cases the reference libraries accept (ein4j rules differ; not failures):')
        for d in divergences:
            print('  ' + d)
    if P.items:
        print('\n%d PROBLEMS:' % len(P.items))
        for p in P.items:
            print('  ' + p)
        return 1
    print('\nall checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
