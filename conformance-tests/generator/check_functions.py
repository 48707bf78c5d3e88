#!/usr/bin/env python3
"""Self-check of the ein4j `function` conformance fixtures (functions.json, layers.json,
model_layers.json, indexing.json).

    python3 conformance-tests/generator/check_functions.py [FILE_OR_FOLDER ...]

Re-reads every file that holds `function` cases and checks
  * the document and case structure against ein4j-conformance/1: field names, the
    TENSOR encoding (float32 / float64 / int32 / bool), the inputs each function takes
    and their dtypes, the output dtype (bool for comparisons, int32 for argmax / argmin /
    one_hot, the `dtype` param for cast, else the float dtype of the inputs), `grad`
    (one upstream per output, zeros for an int32 output such as topk's indices, a gradient
    per float input, null for int32 / bool inputs and running statistics, no grad where an
    input is not finite), unique ids;
  * error cases: torch rejects the call;
  * value cases: the generator's reference (torch, float64) on the decoded inputs
    reproduces the expected outputs and gradients bit for bit after rounding;
  * an independent recomputation (numpy formulas, or the naive sequential
    re-implementation in float64 for losses and layers) agrees within a quarter of the
    case tolerance, outputs and, where there is a naive re-implementation, gradients;
  * torch.autograd.gradcheck (float64) passes on every gradient case whose float
    inputs are all of moderate size (1e-3 <= |x| <= 1e3; the precision and stability
    cases with tiny or huge inputs are left out, finite differences are meaningless
    there), except the two kink cases (relu / abs at 0), the max_pool2d tie cases, casts,
    cases with non-finite outputs (masked_fill with inf / nan: finite differences are NaN there)
    and embedding with padding_idx (PyTorch's convention: the padding row gets no gradient);
  * no ties where a gradient would be ambiguous (amax / amin / maximum / minimum /
    max_pool2d gradient cases), except the max_pool2d cases named `ties-`, which must
    hold ties (PyTorch's convention: the first maximum of a window takes its gradient;
    the naive re-implementation, an argmax-first gather, checks it); no ties along the
    dim of any topk case (PyTorch's order among equal values is unspecified).
Prints counts per file, per name, per dtype and per error kind, and the largest
tolerances; exits 1 on any problem.
"""
import collections
import json
import math
import os
import sys
import warnings

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate_fixtures as G  # noqa: E402
import generate_functions as GF  # noqa: E402
import check_fixtures as CF  # noqa: E402

CASE_KEYS = {'id', 'op', 'name', 'params', 'inputs', 'expected', 'grad', 'rtol', 'atol', 'grad_rtol', 'grad_atol'}
FILE_NAMES = {'functions.json': set(GF.FUNCTION_NAMES), 'layers.json': set(GF.LAYER_NAMES),
              'model_layers.json': set(GF.ML.FILE_NAMES), 'indexing.json': set(GF.IX.FILE_NAMES)}
ALL_NAMES = set(GF.FUNCTION_NAMES) | set(GF.LAYER_NAMES) | set(GF.ML.FILE_NAMES) | set(GF.IX.FILE_NAMES)

# inputs: kinds per position ('f' float, 'i' int32, 'b' bool, 'bf' either, '*' any dtype), how many
# are required
_UN = (['f'], 1)
SIGNATURES = dict({n: _UN for n in GF.UNARY}, **{
    'leaky_relu': _UN, 'elu': _UN, 'gelu': _UN, 'pow': _UN, 'clamp': _UN,
    'softmax': _UN, 'log_softmax': _UN, 'logsumexp': _UN,
    'argmax': _UN, 'argmin': _UN, 'one_hot': (['i'], 1), 'cast': (['*'], 1),
    'where': (['b', 'f', 'f'], 3), 'layer_norm': (['f', 'f', 'f'], 3), 'cross_entropy': (['f', 'i'], 2),
    'mse_loss': (['f', 'f'], 2), 'linear': (['f', 'f', 'f'], 2), 'conv1d': (['f', 'f', 'f'], 2),
    'conv2d': (['f', 'f', 'f'], 2), 'max_pool2d': _UN, 'avg_pool2d': _UN,
    'batch_norm': (['f'] * 5, 1), 'embedding': (['i', 'f'], 2),
    'scaled_dot_product_attention': (['f', 'f', 'f', 'bf'], 3),
}, **GF.ML.SIGNATURES, **GF.IX.SIGNATURES)
# input counts allowed besides the range above allows: batch_norm takes x alone (batch statistics),
# x with the running statistics (no affine), and weight, then bias, on top; never x and one statistic
INPUT_COUNTS = {'batch_norm': (1, 3, 4, 5)}
for _n in list(GF.BINARY) + list(GF.COMPARE):
    SIGNATURES[_n] = (['f', 'f'], 2)
for _n in GF.REDUCE:
    SIGNATURES[_n] = _UN
KIND_OF = {'float32': 'f', 'float64': 'f', 'int32': 'i', 'bool': 'b'}
PARAMS = {
    'leaky_relu': {'negative_slope'}, 'elu': {'alpha'}, 'gelu': {'approximate'}, 'pow': {'exponent'},
    'clamp': {'min', 'max'}, 'softmax': {'dim'}, 'log_softmax': {'dim'}, 'logsumexp': {'dim', 'keepdim'},
    'argmax': {'dim', 'keepdim'}, 'argmin': {'dim', 'keepdim'}, 'one_hot': {'num_classes'}, 'cast': {'dtype'},
    'layer_norm': {'normalized_shape', 'eps'}, 'cross_entropy': {'reduction', 'label_smoothing'},
    'mse_loss': {'reduction'}, 'conv1d': {'stride', 'padding', 'dilation', 'groups'},
    'conv2d': {'stride', 'padding', 'dilation', 'groups'},
    'max_pool2d': {'kernel_size', 'stride', 'padding', 'dilation'},
    'avg_pool2d': {'kernel_size', 'stride', 'padding', 'count_include_pad', 'divisor_override'},
    'batch_norm': {'training', 'momentum', 'eps'}, 'embedding': {'padding_idx'},
    'scaled_dot_product_attention': {'is_causal', 'scale', 'enable_gqa'},
}
PARAMS.update(GF.ML.PARAMS)
PARAMS.update(GF.IX.PARAMS)
for _n in GF.REDUCE:
    PARAMS[_n] = {'dim', 'keepdim'} | ({'correction'} if _n in ('var', 'std') else set())
REQUIRED_PARAMS = {'pow': {'exponent'}, 'softmax': {'dim'}, 'log_softmax': {'dim'}, 'logsumexp': {'dim'},
                   'argmax': {'dim'}, 'argmin': {'dim'}, 'one_hot': {'num_classes'}, 'cast': {'dtype'},
                   'layer_norm': {'normalized_shape'}, 'max_pool2d': {'kernel_size'},
                   'avg_pool2d': {'kernel_size'}}
REQUIRED_PARAMS.update(GF.ML.REQUIRED_PARAMS)
REQUIRED_PARAMS.update(GF.IX.REQUIRED_PARAMS)
# independent recomputations must stay within this fraction of the tolerance (the
# generator sizes tolerances so that its float32 / float64 re-computations, these among
# them, stay within it)
LIMIT = GF.MARGIN
NO_TIES = {'amax', 'amin', 'maximum', 'minimum', 'max_pool2d'}
# ...except max_pool2d cases named 'ties-': PyTorch sends a tie's gradient to the first maximum of
# the window (row-major), which the naive re-implementation reproduces; gradcheck is left out there


def tie_case(c):
    return c['name'] == 'max_pool2d' and '/ties-' in c['id']


class Summary:
    def __init__(self):
        self.per_file = collections.OrderedDict()
        self.per_name = collections.Counter()
        self.per_dtype = collections.Counter()
        self.errors = collections.Counter()
        self.features = collections.Counter()
        self.max_tol = {}
        self.gradcheck = collections.Counter()

    def tol(self, key, value, cid):
        if key not in self.max_tol or value > self.max_tol[key][0]:
            self.max_tol[key] = (value, cid)

    def print(self):
        print('%-20s %6s %6s' % ('file', 'cases', 'errors'))
        for f, (n, e) in self.per_file.items():
            print('%-20s %6d %6d' % (f, n, e))
        print('\nvalue cases per function:')
        for k, n in sorted(self.per_name.items()):
            print('  %-30s %4d' % (k, n))
        print('\nerror cases per function and kind:')
        for (k, kind), n in sorted(self.errors.items()):
            print('  %-30s %-6s %4d' % (k, kind, n))
        print('\ncases per input dtype: %s' % dict(sorted(self.per_dtype.items())))
        print('features: %s' % dict(sorted(self.features.items())))
        print('gradcheck: %s' % dict(sorted(self.gradcheck.items())))
        print('largest explicit tolerances:')
        for k in sorted(self.max_tol):
            v, cid = self.max_tol[k]
            print('  %-18s %-8g %s' % (k, v, cid))


# ----------------------------------------------------------------- helpers

def dec_args(c):
    return [GF.Arg(G.dec_tensor(t)[0], t['dtype']) for t in c['inputs']]


def case_tolerances(c):
    """(rtol, atol, grad_rtol, grad_atol); defaults by the float dtype of the outputs
    (of the float inputs where the outputs are int32 / bool)."""
    out_fl = [t['dtype'] for t in c['expected']['outputs'] if t['dtype'] in GF.FLOAT]
    in_fl = [t['dtype'] for t in c['inputs'] if t['dtype'] in GF.FLOAT]
    d = (out_fl or in_fl or ['float64'])[0]
    rtol0, atol0 = G.DEFAULT_TOL[d]
    rtol, atol = c.get('rtol', rtol0), c.get('atol', atol0)
    return rtol, atol, c.get('grad_rtol', rtol), c.get('grad_atol', atol)


def identical(a, b):
    """Same shape and values; zeros of the same sign; NaN equals NaN (the encoding has no
    NaN sign)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or not np.array_equal(a, b, equal_nan=True):
        return False
    m = ~np.isnan(a)
    return np.array_equal(np.signbit(a[m]), np.signbit(b[m]))


def expected_out_dtypes(name, params, args):
    if name in GF.IX.NEW_NAMES:
        return GF.IX.output_dtypes(name, args)
    if name in GF.COMPARE:
        return ['bool']
    if name in ('argmax', 'argmin', 'one_hot'):
        return ['int32']
    if name == 'cast':
        return [params.get('dtype')]
    return [GF.case_float_dtype(args)]


def _param_ok(v):
    """Numbers, booleans, strings, or lists of numbers (scale_factor) and of ints or null
    (adaptive_avg_pool2d's output_size: null keeps the input's length)."""
    if isinstance(v, (bool, int, float, str)):
        return not (isinstance(v, float) and not math.isfinite(v))
    return isinstance(v, list) and all(x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)
                                                     and math.isfinite(x)) for x in v)


# ----------------------------------------------------------------- independent recomputation

def independent(name, p, args):
    """(label, outputs) from numpy, else from the naive re-implementation in float64."""
    r = GF.evaluate_numpy(name, p, args, 'ref')
    if r is not None:
        return 'numpy', r
    r = GF.evaluate(name, p, args, impl=GF.naive_fwd)
    return ('naive', r[0]) if r is not None else (None, None)


# ----------------------------------------------------------------- gradcheck

def moderate(args):
    for a in args:
        if a.dtype in GF.FLOAT:
            v = np.abs(a.a[a.a != 0])
            if v.size and (v.min() < 1e-3 or v.max() > 1e3):
                return False
    return True


def run_gradcheck(name, p, args):
    gpos = GF.grad_positions(name, args)
    base = [GF.to_torch(a, 'ref') for a in args]

    def f(*gs):
        ts = list(base)
        for i, g in zip(gpos, gs):
            ts[i] = g
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return tuple(GF.fwd(name, p, ts))

    inputs = tuple(base[i].clone().requires_grad_(True) for i in gpos)
    n = sum(t.numel() for t in inputs)
    return torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=False,
                                    fast_mode=n > 200)


# ----------------------------------------------------------------- per case

def check_structure(c, fname, P):
    where = '%s:%s' % (fname, c.get('id'))
    unknown = set(c) - CASE_KEYS
    if unknown:
        P.add(where, 'unknown fields %s' % sorted(unknown))
    if not isinstance(c.get('id'), str) or not c['id']:
        P.add(where, 'missing id')
        return False
    if c.get('op') != 'function' or 'pattern' in c:
        P.add(where, 'op must be function, without pattern')
        return False
    name = c.get('name')
    allowed = FILE_NAMES.get(fname, ALL_NAMES)
    if name not in allowed:
        P.add(where, 'name %r not allowed in %s' % (name, fname))
        return False
    p = c.get('params', {})
    if not isinstance(p, dict) or ('params' in c and not p):
        P.add(where, 'params must be a non-empty object when present')
        return False
    bad = set(p) - PARAMS.get(name, set())
    if bad:
        P.add(where, 'unknown params %s' % sorted(bad))
    if not all(_param_ok(v) for v in p.values()):
        P.add(where, 'params must be numbers, booleans, strings or lists of ints')
    if REQUIRED_PARAMS.get(name, set()) - set(p):
        P.add(where, 'missing params %s' % sorted(REQUIRED_PARAMS[name] - set(p)))
    for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol'):
        if k in c and not (isinstance(c[k], (int, float)) and not isinstance(c[k], bool) and c[k] > 0):
            P.add(where, '%s must be a positive number' % k)
    ins = c.get('inputs')
    if not isinstance(ins, list) or not ins:
        P.add(where, 'inputs must be a non-empty list')
        return False
    ok = True
    for i, t in enumerate(ins):
        ok &= CF.check_tensor(t, '%s inputs[%d]' % (where, i), P)
    if not ok:
        return False
    exp = c.get('expected')
    if not isinstance(exp, dict) or set(exp) not in ({'outputs'}, {'error'}):
        P.add(where, 'expected must hold exactly outputs or error')
        return False
    kinds, n_req = SIGNATURES[name]
    if 'error' in exp:
        if exp['error'] not in ('syntax', 'shape', 'any'):
            P.add(where, 'bad error kind %r' % exp['error'])
        if 'grad' in c or any(k in c for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol')):
            P.add(where, 'error case with grad or tolerances')
        return True
    if not n_req <= len(ins) <= len(kinds) or len(ins) not in INPUT_COUNTS.get(name, (len(ins),)):
        P.add(where, '%s takes %s inputs, got %d' % (
            name, INPUT_COUNTS.get(name, '%d to %d' % (n_req, len(kinds))), len(ins)))
        return False
    for i, (t, k) in enumerate(zip(ins, kinds)):
        if k != '*' and KIND_OF[t['dtype']] not in k:
            P.add(where, 'input %d has dtype %s' % (i, t['dtype']))
            ok = False
    fl = {t['dtype'] for t in ins if t['dtype'] in GF.FLOAT}
    if len(fl) > 1:
        P.add(where, 'float inputs of mixed dtypes %s' % sorted(fl))
        ok = False
    outs = exp['outputs']
    count = GF.IX.OUTPUTS.get(name, 1)
    if not isinstance(outs, list) or len(outs) != count:
        P.add(where, 'expected %d output%s' % (count, '' if count == 1 else 's'))
        return False
    for i, o in enumerate(outs):
        ok &= CF.check_tensor(o, '%s outputs[%d]' % (where, i), P)
    if not ok:
        return False
    args = dec_args(c)
    want = expected_out_dtypes(name, p, args)
    if [o['dtype'] for o in outs] != want:
        P.add(where, 'output dtypes %s, expected %s' % ([o['dtype'] for o in outs], want))
        ok = False
    if 'grad' in c:
        g = c['grad']
        if not (isinstance(g, dict) and set(g) == {'upstream', 'inputs'} and isinstance(g['upstream'], list)
                and isinstance(g['inputs'], list) and len(g['upstream']) == len(outs)
                and len(g['inputs']) == len(ins)):
            P.add(where, 'grad must hold one upstream per output and one entry per input')
            return False
        for i, (u, o) in enumerate(zip(g['upstream'], outs)):
            if not CF.check_tensor(u, '%s grad.upstream[%d]' % (where, i), P):
                return False
            if u['shape'] != o['shape'] or u['dtype'] != o['dtype']:
                P.add(where, 'upstream %d shape/dtype != output' % i)
                ok = False
            elif o['dtype'] not in GF.FLOAT and any(v != 0 for v in u['data']):
                P.add(where, 'upstream %d of an integer output must be zeros' % i)
                ok = False
        gpos = GF.grad_positions(name, args)
        for i, (gi, t) in enumerate(zip(g['inputs'], ins)):
            if i not in gpos:
                if gi is not None:
                    P.add(where, 'grad.inputs[%d] must be null (%s input)' % (i, t['dtype']))
                    ok = False
                continue
            if gi is None or not CF.check_tensor(gi, '%s grad.inputs[%d]' % (where, i), P):
                P.add(where, 'grad.inputs[%d] must be a tensor' % i)
                return False
            if gi['shape'] != t['shape'] or gi['dtype'] != t['dtype']:
                P.add(where, 'gradient %d shape/dtype != input' % i)
                ok = False
        if not all(np.isfinite(a.a).all() for a in args):
            P.add(where, 'grad given for non-finite inputs')
            ok = False
        if not gpos or not any(o['dtype'] in GF.FLOAT for o in outs):
            P.add(where, 'grad on a case without float inputs / outputs')
            ok = False
    return ok


def check_case(c, fname, P, S, rng):
    where = '%s:%s' % (fname, c['id'])
    name, p = c['name'], c.get('params', {})
    args = dec_args(c)
    S.per_dtype['/'.join(sorted({a.dtype for a in args}))] += 1
    if 'error' in c['expected']:
        S.errors[(name, c['expected']['error'])] += 1
        rejected, msg = GF.raises(name, p, args)
        if not rejected:
            P.add(where, 'torch accepts a call tagged as an error')
        return
    S.per_name[name] += 1
    rtol, atol, grtol, gatol = case_tolerances(c)
    for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol'):
        if k in c:
            S.tol(k, c[k], c['id'])
    if any(k in c for k in ('rtol', 'atol', 'grad_rtol', 'grad_atol')):
        S.features['with explicit tolerances'] += 1
    if c.get('atol') == GF.TIGHT_ATOL:
        S.features['precision (tight atol)'] += 1
    exp = [G.dec_tensor(t)[0] for t in c['expected']['outputs']]
    odts = [t['dtype'] for t in c['expected']['outputs']]
    upstream = [G.dec_tensor(t)[0] for t in c['grad']['upstream']] if 'grad' in c else None
    exp_grads = ([None if t is None else G.dec_tensor(t)[0] for t in c['grad']['inputs']]
                 if 'grad' in c else None)
    # ---- bit-identical recomputation
    outs, rdts, grads = GF.evaluate(name, p, args, upstream)
    if rdts != odts:
        P.add(where, 'output dtypes %s != recomputed %s' % (odts, rdts))
        return
    for i, (o, e, d) in enumerate(zip(outs, exp, odts)):
        if not identical(G.round_to(o, d) if d in GF.FLOAT else o, e):
            P.add(where, 'output %d does not recompute identically' % i)
    if grads is not None:
        for i, (g, e, a) in enumerate(zip(grads, exp_grads, args)):
            if (g is None) != (e is None) or (g is not None and not identical(G.round_to(g, a.dtype), e)):
                P.add(where, 'gradient %d does not recompute identically' % i)
    # ---- independent recomputation
    label, res = independent(name, p, args)
    if res is None:
        P.add(where, 'no independent recomputation')
    else:
        S.features['independent: %s' % label] += 1
        for i, (o, e, d) in enumerate(zip(res, exp, odts)):
            if d in GF.FLOAT:
                v = G.violation(G.round_to(o, d), e, rtol, atol)
                if v > LIMIT:
                    P.add(where, '%s output %d off by %.3g of the tolerance' % (label, i, v))
            elif not (np.shape(o) == e.shape and np.array_equal(np.asarray(o, dtype=np.float64), e)):
                P.add(where, '%s output %d differs' % (label, i))
    if exp_grads is not None and all(np.isfinite(a.a).all() for a in args):
        r = GF.evaluate(name, p, args, upstream, impl=GF.naive_fwd)
        if r is not None:
            S.features['gradient vs naive autograd'] += 1
            for i, (g, e, a) in enumerate(zip(r[2], exp_grads, args)):
                if e is not None:
                    v = G.violation(G.round_to(g, a.dtype), e, grtol, gatol)
                    if v > LIMIT:
                        P.add(where, 'naive gradient %d off by %.3g of the tolerance' % (i, v))
    # ---- gradcheck
    if exp_grads is not None:
        S.features['with grad'] += 1
        if '/kink-' in c['id']:
            S.gradcheck['skipped: kink (torch convention)'] += 1
        elif tie_case(c):
            S.gradcheck['skipped: max_pool2d ties (torch convention)'] += 1
        elif name == 'cast':
            S.gradcheck['skipped: cast'] += 1
        elif not moderate(args):
            S.gradcheck['skipped: tiny or huge inputs'] += 1
        elif any(args[i].a.size == 0 for i in GF.grad_positions(name, args)):
            S.gradcheck['skipped: zero-size'] += 1
        elif not all(np.isfinite(e).all() for e, d in zip(exp, odts) if d in GF.FLOAT):
            S.gradcheck['skipped: non-finite outputs'] += 1
        elif name == 'embedding' and 'padding_idx' in p:
            S.gradcheck['skipped: padding_idx (torch convention)'] += 1
        elif run_gradcheck(name, p, args):
            S.gradcheck['passed'] += 1
        else:
            S.gradcheck['FAILED'] += 1
            P.add(where, 'torch.autograd.gradcheck fails')
    # ---- case properties
    if exp_grads is not None and name in NO_TIES and not tie_case(c):
        if name in ('maximum', 'minimum'):
            if np.isin(args[0].a, args[1].a).any():
                P.add(where, 'maximum/minimum gradient case with equal values')
        elif np.unique(args[0].a).size != args[0].a.size:
            P.add(where, '%s gradient case with ties' % name)
    if tie_case(c) and np.unique(args[0].a).size == args[0].a.size:
        P.add(where, 'max_pool2d ties- case without ties')
    if name == 'topk' and args[0].a.ndim:
        rows = np.moveaxis(args[0].a, p.get('dim', -1), -1).reshape(-1, args[0].a.shape[p.get('dim', -1)])
        if any(np.unique(row).size != row.size for row in rows):
            P.add(where, 'topk case with ties along its dim')
    if not all(np.isfinite(a.a).all() for a in args):
        S.features['with nan/inf inputs'] += 1
    if any(a.a.size == 0 for a in args):
        S.features['with zero-size tensors'] += 1
    if any(a.a.ndim == 0 for a in args):
        S.features['with scalar inputs'] += 1


def check_doc(fname, doc, P, S, all_ids=None, rng=None):
    rng = rng or np.random.default_rng(12345)
    if doc.get('format') != G.FORMAT:
        P.add(fname, 'format must be %s' % G.FORMAT)
    gen = doc.get('generator', '')
    for lib in ('numpy ' + np.__version__, 'torch ' + torch.__version__):
        if lib not in gen:
            P.add(fname, 'generator string does not name %s' % lib)
    cases = doc.get('cases', [])
    ids = [c.get('id') for c in cases]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        P.add(fname, 'duplicate ids %s' % dup)
    n_err = 0
    for c in cases:
        if all_ids is not None:
            if c.get('id') in all_ids:
                P.add('%s:%s' % (fname, c.get('id')), 'id also used in another file')
            all_ids.add(c.get('id'))
        if not check_structure(c, fname, P):
            continue
        if 'error' in c['expected']:
            n_err += 1
        try:
            check_case(c, fname, P, S, rng)
        except Exception as e:  # a case the checker cannot evaluate is a problem, not a crash
            P.add('%s:%s' % (fname, c['id']), 'check raised %s: %s' % (type(e).__name__, e))
    S.per_file[fname] = (len(cases), n_err)


def has_function_cases(doc):
    return any(isinstance(c, dict) and c.get('op') == 'function' for c in doc.get('cases', []))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    files = CF.collect(argv or [G.FIXTURES_DIR])
    P = CF.Problems()
    S = Summary()
    all_ids = set()
    for path in files:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
        if not has_function_cases(doc):
            continue
        check_doc(os.path.basename(path), doc, P, S, all_ids)
    S.print()
    if P.items:
        print('\n%d PROBLEMS:' % len(P.items))
        for p in P.items:
            print('  ' + p)
        return 1
    print('\nall checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
