"""The `function` cases of the indexing functions (indexing.json): gather, index_select,
masked_fill, cumsum and topk, and embedding with larger vocabularies and padding_idx.

generate_functions.py owns the machinery (Builder, evaluation, tolerance sizing) and calls in here
for the torch reference of the new names (`fwd`), their naive re-implementations (`naive_fwd`: one
element or one slice at a time, cumsum by doubling, topk by a Python sort; used to size float32
tolerances and, in float64, with their autograd gradients, as an independent check), their numpy
formulas (`numpy_fwd`) and the case tables (`gen`).
"""
import itertools
import math

import numpy as np
import torch

NEW_NAMES = ('gather', 'index_select', 'masked_fill', 'cumsum', 'topk')
FILE_NAMES = NEW_NAMES + ('embedding',)
# names this module has a naive re-implementation of (embedding's, with padding_idx, is new here)
NAIVE_NAMES = NEW_NAMES + ('embedding',)

# check_functions.py: inputs (kinds per position, how many required), params, outputs per case
SIGNATURES = {
    'gather': (['*', 'i'], 2), 'index_select': (['*', 'i'], 2), 'masked_fill': (['*', 'b'], 2),
    'cumsum': (['*'], 1), 'topk': (['fi'], 1),
}
PARAMS = {'gather': {'dim'}, 'index_select': {'dim'}, 'masked_fill': {'value'}, 'cumsum': {'dim'},
          'topk': {'k', 'dim', 'largest'}}
REQUIRED_PARAMS = {'gather': {'dim'}, 'index_select': {'dim'}, 'masked_fill': {'value'}, 'cumsum': {'dim'},
                   'topk': {'k'}}
OUTPUTS = {'topk': 2}


def output_dtypes(name, args):
    """The format's output dtypes: x's for the selections, int32 for the indices of topk and the
    cumulative sums of int32 and bool (torch gives int64)."""
    x = args[0].dtype
    if name == 'topk':
        return [x, 'int32']
    if name == 'cumsum':
        return [x if x in ('float32', 'float64') else 'int32']
    return [x]


def number(v):
    """A number param, or the format's strings for infinities and NaN."""
    return {'inf': math.inf, '-inf': -math.inf, 'nan': math.nan}[v] if isinstance(v, str) else v


# ----------------------------------------------------------------- reference (torch)

def fwd(name, p, ts):
    x = ts[0]
    if name == 'gather':
        return [torch.gather(x, p['dim'], ts[1])]
    if name == 'index_select':
        return [torch.index_select(x, p['dim'], ts[1])]
    if name == 'masked_fill':
        return [torch.masked_fill(x, ts[1], number(p['value']))]
    if name == 'cumsum':
        r = torch.cumsum(x, p['dim'])
        return [r if r.dtype.is_floating_point else _int32(r)]
    if name == 'topk':
        values, indices = torch.topk(x, p['k'], dim=p.get('dim', -1), largest=p.get('largest', True))
        return [values, indices.to(torch.int32)]
    raise ValueError(name)


def _int32(t):
    if t.numel() and (t.max() > 2 ** 31 - 1 or t.min() < -2 ** 31):
        raise RuntimeError('an integer result leaves the int32 range')
    return t.to(torch.int32)


# ----------------------------------------------------------------- naive re-implementations
# In the dtype of the inputs, one element or slice at a time; autograd through them gives the
# gradients in another way than torch's own backward.

def _positions(shape):
    return itertools.product(*[range(n) for n in shape])


def naive_gather(x, dim, index):
    axis = dim % x.ndim
    picked = []
    for pos in _positions(index.shape):
        source = list(pos)
        source[axis] = int(index[pos])
        picked.append(x[tuple(source)])
    return torch.stack(picked).reshape(index.shape) if picked else torch.zeros(index.shape, dtype=x.dtype)


def naive_index_select(x, dim, index):
    axis = dim % x.ndim
    rows = [x.select(axis, int(i)) for i in index.reshape(-1)]
    if not rows:
        shape = list(x.shape)
        shape[axis] = 0
        return torch.zeros(shape, dtype=x.dtype)
    return torch.stack(rows, axis)


def _converted(value, dtype):
    """A fill value as torch converts it to the input's type: truncation toward zero, bool != 0."""
    if dtype == torch.bool:
        return bool(value != 0)
    if not dtype.is_floating_point:
        return int(value)
    return value


def naive_masked_fill(x, mask, value):
    fill = torch.tensor(_converted(value, x.dtype), dtype=x.dtype)
    shape = torch.broadcast_shapes(x.shape, mask.shape)
    return torch.where(mask.expand(shape), fill.expand(shape), x.expand(shape))


def naive_cumsum(x, dim):
    """By doubling (Hillis and Steele): log2(n) rounds of y + (y shifted by s), another order of
    additions than torch's and numpy's running sums."""
    if x.ndim == 0:
        return x
    y = x if x.dtype.is_floating_point else x.to(torch.int64)
    axis = dim % x.ndim
    n = x.shape[axis]
    shift = 1
    while shift < n:
        head = y.narrow(axis, 0, shift)
        y = torch.cat([head, y.narrow(axis, shift, n - shift) + y.narrow(axis, 0, n - shift)], axis)
        shift *= 2
    return y if y.dtype.is_floating_point else _int32(y)


def naive_topk(x, k, dim, largest):
    """Each row sorted by a Python key (NaN above every number), the first k taken."""
    axis = dim % x.ndim
    moved = x.movedim(axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    values, indices = [], []
    for r in range(rows.shape[0]):
        numbers = [float(v) for v in rows[r].detach()]

        def key(i):
            v = numbers[i]
            nan = math.isnan(v)
            return (0 if nan else 1, 0.0 if nan else -v) if largest else (1 if nan else 0, 0.0 if nan else v)
        order = sorted(range(len(numbers)), key=key)[:k]
        indices.append(order)
        values.append(torch.stack([rows[r][i] for i in order]) if order else rows[r][:0])
    shape = list(moved.shape[:-1]) + [k]
    v = torch.stack(values).reshape(shape).movedim(-1, axis)
    i = torch.tensor(indices, dtype=torch.int32).reshape(shape).movedim(-1, axis)
    return [v, i]


def naive_embedding(indices, weight, padding_idx):
    """Row by row; the padding row is read detached, so it learns nothing."""
    padding = None if padding_idx is None else padding_idx % weight.shape[0]
    rows = [weight[int(i)].detach() if int(i) == padding else weight[int(i)] for i in indices.reshape(-1)]
    shape = list(indices.shape) + [weight.shape[1]]
    return torch.stack(rows).reshape(shape) if rows else torch.zeros(shape, dtype=weight.dtype)


def naive_fwd(name, p, ts):
    x = ts[0]
    if name == 'embedding':
        return [naive_embedding(x, ts[1], p.get('padding_idx'))]
    if name == 'gather':
        return [naive_gather(x, p['dim'], ts[1])]
    if name == 'index_select':
        return [naive_index_select(x, p['dim'], ts[1])]
    if name == 'masked_fill':
        return [naive_masked_fill(x, ts[1], number(p['value']))]
    if name == 'cumsum':
        return [naive_cumsum(x, p['dim'])]
    if name == 'topk':
        return naive_topk(x, p['k'], p.get('dim', -1), p.get('largest', True))
    return None


# ----------------------------------------------------------------- numpy formulas

def numpy_fwd(name, p, xs):
    x = xs[0]
    if name == 'gather':
        index = xs[1]
        axis = p['dim'] % x.ndim
        # the index may be shorter than x along the other axes: take that corner of x
        corner = tuple(slice(None) if d == axis else slice(0, index.shape[d]) for d in range(x.ndim))
        return [np.take_along_axis(x[corner], index, axis=axis)]
    if name == 'index_select':
        return [np.take(x, np.atleast_1d(xs[1]), axis=p['dim'])]
    if name == 'masked_fill':
        value = number(p['value'])
        fill = (value != 0) if x.dtype == np.bool_ else (math.trunc(value) if x.dtype.kind in 'iu' else value)
        return [np.where(xs[1], fill, x)]
    if name == 'cumsum':
        return [np.cumsum(x.astype(np.int64) if x.dtype == np.bool_ else x, axis=p['dim'])]
    if name == 'topk':
        axis, k = p.get('dim', -1), p['k']
        moved = np.moveaxis(x, axis, -1)
        nan = np.isnan(moved) if moved.dtype.kind == 'f' else np.zeros(moved.shape, dtype=bool)
        # np.lexsort: the last key is the primary one; NaN first among the largest, last among the smallest
        order = (np.lexsort((-moved, ~nan), axis=-1) if p.get('largest', True)
                 else np.lexsort((moved, nan), axis=-1))[..., :k]
        values = np.take_along_axis(moved, order, axis=-1)
        return [np.moveaxis(values, -1, axis), np.moveaxis(order, -1, axis)]
    return None


# ----------------------------------------------------------------- cases

def gen(b, rng, H):
    """H: generate_functions (the value helpers R, A, I, B, rvals, dt and FLOAT)."""
    _gather(b, rng, H)
    _index_select(b, rng, H)
    _masked_fill(b, rng, H)
    _cumsum(b, rng, H)
    _topk(b, rng, H)
    _embedding(b, rng, H)
    return b


def _index(rng, shape, length):
    return rng.integers(0, length, size=shape)


def _gather(b, rng, H):
    R, I, dt = H.R, H.I, H.dt
    cases = [
        # tag, x shape, dim, index shape (at most x's lengths apart from dim)
        ('1d', (5,), 0, (7,)),
        ('2d-dim0', (3, 4), 0, (2, 4)),
        ('2d-dim1', (3, 4), 1, (3, 2)),
        ('2d-dim-1', (3, 4), -1, (3, 5)),
        ('2d-dim-2', (3, 4), -2, (4, 4)),
        ('3d-dim0', (3, 2, 4), 0, (2, 2, 4)),
        ('3d-dim1', (2, 3, 4), 1, (2, 5, 4)),
        ('3d-dim2', (2, 3, 4), 2, (2, 3, 3)),
        ('3d-dim-3', (3, 2, 2), -3, (4, 2, 2)),
        ('3d-shorter-other-dims', (4, 5, 3), 1, (2, 3, 2)),
        ('2d-shorter-other-dim-dim0', (3, 5), 0, (2, 2)),
        ('4d-dim-2', (2, 2, 3, 2), -2, (1, 2, 4, 2)),
        ('one-element', (1, 1), 1, (1, 1)),
    ]
    for tag, xs, dim, ixs in cases:
        for d in H.FLOAT:
            length = xs[dim]
            b.case('gather', '%s-%s' % (tag, dt(d)), [R(rng, xs, d), I(_index(rng, ixs, length))], {'dim': dim})
    for d in H.FLOAT:
        # every element of a row read several times: the gradient adds the reads up
        b.case('gather', 'repeated-indices-%s' % dt(d), [R(rng, (2, 3), d), I([[1, 1, 1, 1], [2, 0, 2, 2]])],
               {'dim': 1})
        b.case('gather', 'all-same-index-dim0-%s' % dt(d), [R(rng, (3, 2), d), I(np.full((5, 2), 2))], {'dim': 0})
        b.case('gather', 'first-and-last-%s' % dt(d), [R(rng, (2, 6), d), I([[0, 5, 0], [5, 0, 5]])], {'dim': -1})
        b.case('gather', 'empty-index-%s' % dt(d), [R(rng, (3, 4), d), I(np.zeros((3, 0)))], {'dim': 1})
        b.case('gather', 'empty-index-dim0-%s' % dt(d), [R(rng, (3, 4), d), I(np.zeros((0, 4)))], {'dim': 0})
        b.case('gather', 'zero-size-other-dim-%s' % dt(d), [R(rng, (0, 4), d), I(np.zeros((0, 2)))], {'dim': 1})
        b.case('gather', 'special-values-%s' % dt(d),
               [H.A([[math.nan, math.inf, -math.inf, -0.0]], d), I([[3, 0, 1, 2, 0]])], {'dim': 1}, grad=False)
    b.case('gather', 'int32-input', [I(rng.integers(-50, 50, size=(3, 4))), I(_index(rng, (3, 2), 4))], {'dim': 1})
    b.case('gather', 'int32-extremes', [I([[2 ** 31 - 1, -2 ** 31, 0]]), I([[1, 0, 1, 2]])], {'dim': 1})
    b.case('gather', 'bool-input', [H.B(rng.integers(0, 2, size=(4, 3))), I(_index(rng, (2, 3), 4))], {'dim': 0})
    f32, f64 = 'float32', 'float64'
    b.error('gather', 'index-out-of-range', [R(rng, (3, 4), f32), I([[0, 4]] * 3)], {'dim': 1}, kind='any')
    b.error('gather', 'index-out-of-range-dim0', [R(rng, (3, 4), f64), I([[0, 1, 3, 2]])], {'dim': 0}, kind='any')
    b.error('gather', 'negative-index', [R(rng, (3, 4), f64), I([[0], [-1], [2]])], {'dim': 1}, kind='any')
    b.error('gather', 'float-index', [R(rng, (3, 4), f32), H.A([[0.0, 1.0]] * 3, f32)], {'dim': 1})
    b.error('gather', 'bool-index', [R(rng, (3, 4), f64), H.B([[0, 1]] * 3)], {'dim': 1})
    b.error('gather', 'index-rank-lower', [R(rng, (3, 4), f32), I([0, 1])], {'dim': 1})
    b.error('gather', 'index-rank-higher', [R(rng, (3, 4), f64), I(np.zeros((3, 1, 1)))], {'dim': 1})
    b.error('gather', 'index-longer-than-input-on-other-dim', [R(rng, (3, 4), f32), I(np.zeros((4, 1)))],
            {'dim': 1})
    b.error('gather', 'dim-out-of-range', [R(rng, (3, 4), f64), I(np.zeros((3, 1)))], {'dim': 2})
    b.error('gather', 'negative-dim-out-of-range', [R(rng, (3, 4), f32), I(np.zeros((3, 1)))], {'dim': -3})


def _index_select(b, rng, H):
    R, I, dt = H.R, H.I, H.dt
    cases = [
        # tag, x shape, dim, index
        ('1d', (6,), 0, [5, 0, 3]),
        ('2d-dim0', (4, 3), 0, [3, 1]),
        ('2d-dim1', (4, 3), 1, [2, 0, 1, 0]),
        ('2d-dim-1', (3, 5), -1, [4, 2]),
        ('2d-dim-2', (5, 2), -2, [0, 4, 2]),
        ('3d-dim1', (2, 4, 3), 1, [3, 3, 0]),
        ('3d-dim2', (2, 3, 4), 2, [1, 3]),
        ('3d-dim-3', (3, 2, 2), -3, [2, 0, 1, 2]),
        ('repeated-indices', (3, 2), 0, [1, 1, 1, 2, 1]),
        ('permutation', (4, 2), 0, [2, 0, 3, 1]),
        ('longer-than-input', (2, 3), 1, [0, 2, 1, 2, 0, 1, 1]),
        ('empty-index', (3, 4), 1, np.zeros(0)),
        ('scalar-index', (4, 3), 0, 2),
    ]
    for tag, xs, dim, index in cases:
        for d in H.FLOAT:
            b.case('index_select', '%s-%s' % (tag, dt(d)), [R(rng, xs, d), I(index)], {'dim': dim})
    for d in H.FLOAT:
        b.case('index_select', 'zero-size-other-dim-%s' % dt(d), [R(rng, (0, 3), d), I([2, 0])], {'dim': 1})
        b.case('index_select', 'special-values-%s' % dt(d),
               [H.A([[math.nan, 1.0], [math.inf, -math.inf]], d), I([1, 0, 1])], {'dim': 0}, grad=False)
    b.case('index_select', 'int32-input', [I(rng.integers(-50, 50, size=(4, 3))), I([3, 0, 3])], {'dim': 0})
    b.case('index_select', 'bool-input', [H.B(rng.integers(0, 2, size=(3, 4))), I([1, 3])], {'dim': 1})
    f32, f64 = 'float32', 'float64'
    b.error('index_select', 'index-out-of-range', [R(rng, (4, 3), f32), I([0, 4])], {'dim': 0}, kind='any')
    b.error('index_select', 'index-out-of-range-dim1', [R(rng, (4, 3), f64), I([3])], {'dim': 1}, kind='any')
    b.error('index_select', 'negative-index', [R(rng, (4, 3), f64), I([1, -1])], {'dim': 0}, kind='any')
    b.error('index_select', 'index-2d', [R(rng, (4, 3), f32), I([[0, 1]])], {'dim': 0})
    b.error('index_select', 'float-index', [R(rng, (4, 3), f64), H.A([0.0, 1.0], f64)], {'dim': 0})
    b.error('index_select', 'bool-index', [R(rng, (4, 3), f32), H.B([1, 0])], {'dim': 1})
    b.error('index_select', 'dim-out-of-range', [R(rng, (4, 3), f32), I([0])], {'dim': 2})
    b.error('index_select', 'negative-dim-out-of-range', [R(rng, (4, 3), f64), I([0])], {'dim': -3})


def _masked_fill(b, rng, H):
    R, B, dt = H.R, H.B, H.dt

    def mask(shape, all_value=None):
        return B(np.full(shape, all_value) if all_value is not None else rng.integers(0, 2, size=shape))
    cases = [
        # tag, x shape, mask shape, value, all-true / all-false / random mask
        ('same-shape', (3, 4), (3, 4), -1.5, None),
        ('row-mask', (3, 4), (4,), 0.0, None),
        ('column-mask', (3, 4), (3, 1), 2.25, None),
        ('unit-mask', (2, 3), (1, 1), 7.0, True),
        ('scalar-mask', (2, 3), (), -3.0, True),
        ('mask-broadcasts-input', (3,), (2, 3), 1.0, None),
        ('both-broadcast', (3, 1), (1, 4), -2.0, None),
        ('3d-mask-middle', (2, 3, 4), (1, 3, 1), 0.5, None),
        ('all-false', (2, 3), (2, 3), 9.0, False),
        ('all-true', (2, 3), (2, 3), 9.0, True),
        ('value-inf', (3, 4), (3, 4), 'inf', None),
        ('value-minus-inf', (3, 4), (4,), '-inf', None),
        ('value-nan', (2, 4), (2, 4), 'nan', None),
        ('value-large', (2, 3), (3,), 1e30, None),
        ('value-integer', (2, 3), (2, 3), 4, None),
        ('scalar-input', (), (), -1.0, True),
        ('zero-size', (0, 3), (3,), 1.0, None),
    ]
    for tag, xs, ms, value, fill in cases:
        for d in H.FLOAT:
            b.case('masked_fill', '%s-%s' % (tag, dt(d)), [R(rng, xs, d), mask(ms, fill)], {'value': value})
    for d in H.FLOAT:
        b.case('masked_fill', 'special-values-input-%s' % dt(d),
               [H.A([math.nan, math.inf, -math.inf, -0.0, 1.0], d), B([1, 0, 0, 1, 0])], {'value': 0.0}, grad=False)
    I = H.I
    ints = rng.integers(-50, 50, size=(3, 4))
    b.case('masked_fill', 'int32-input', [I(ints), mask((3, 4))], {'value': 7})
    b.case('masked_fill', 'int32-input-fraction-truncated', [I(ints), mask((4,))], {'value': 2.7})
    b.case('masked_fill', 'int32-input-negative-fraction-truncated', [I(ints), mask((3, 1))], {'value': -2.5})
    b.case('masked_fill', 'int32-input-extreme-value', [I(ints), mask((3, 4))], {'value': -2147483648})
    flags = rng.integers(0, 2, size=(2, 4))
    b.case('masked_fill', 'bool-input-true', [B(flags), mask((2, 4))], {'value': 1})
    b.case('masked_fill', 'bool-input-false', [B(flags), mask((4,))], {'value': 0})
    b.case('masked_fill', 'bool-input-fraction-is-true', [B(flags), mask((2, 1))], {'value': 0.5})
    f32, f64 = 'float32', 'float64'
    b.error('masked_fill', 'int32-mask', [R(rng, (2, 3), f32), I(np.ones((2, 3)))], {'value': 0.0})
    b.error('masked_fill', 'float-mask', [R(rng, (2, 3), f64), H.A(np.ones((2, 3)), f64)], {'value': 0.0})
    b.error('masked_fill', 'mask-not-broadcasting', [R(rng, (2, 3), f32), mask((2,))], {'value': 1.0})
    b.error('masked_fill', 'mask-not-broadcasting-3d', [R(rng, (2, 3, 4), f64), mask((3, 3, 4))], {'value': 1.0})
    b.error('masked_fill', 'int32-input-value-inf', [I(ints), mask((3, 4))], {'value': 'inf'}, kind='any')
    b.error('masked_fill', 'int32-input-value-nan', [I(ints), mask((3, 4))], {'value': 'nan'}, kind='any')
    b.error('masked_fill', 'int32-input-value-overflows', [I(ints), mask((4,))], {'value': 2147483648}, kind='any')


def _cumsum(b, rng, H):
    R, I, dt = H.R, H.I, H.dt
    cases = [
        # tag, x shape, dim
        ('1d', (7,), 0),
        ('2d-dim0', (4, 3), 0),
        ('2d-dim1', (3, 5), 1),
        ('2d-dim-1', (2, 6), -1),
        ('2d-dim-2', (5, 2), -2),
        ('3d-dim1', (2, 4, 3), 1),
        ('3d-dim-3', (3, 2, 2), -3),
        ('length-one', (3, 1), 1),
        ('length-two', (2, 2), 1),
        ('length-power-of-two-16', (2, 16), 1),
        ('length-17', (17, 2), 0),
        ('long-row-100', (1, 100), 1),
        ('zero-size-dim', (2, 0), 1),
        ('zero-size-other-dim', (0, 3), 1),
    ]
    for tag, xs, dim in cases:
        for d in H.FLOAT:
            b.case('cumsum', '%s-%s' % (tag, dt(d)), [R(rng, xs, d)], {'dim': dim})
    for d in H.FLOAT:
        b.case('cumsum', 'special-values-%s' % dt(d),
               [H.A([[1.0, math.inf, 2.0, -math.inf, 3.0], [math.nan, 1.0, 2.0, 3.0, 4.0]], d)], {'dim': 1},
               grad=False)
        b.case('cumsum', 'only-plus-inf-%s' % dt(d), [H.A([-1.0, math.inf, 2.0, math.inf, -3.0], d)], {'dim': 0},
               grad=False)
        b.case('cumsum', 'cancelling-%s' % dt(d), [H.A([1e4, 1.0, -1e4, 0.5, 2.0, -3.5], d)], {'dim': 0})
    b.case('cumsum', 'int32-input', [I(rng.integers(-100, 100, size=(3, 6)))], {'dim': 1})
    b.case('cumsum', 'int32-input-dim0', [I(rng.integers(-100, 100, size=(5, 2)))], {'dim': 0})
    b.case('cumsum', 'int32-long-row', [I(rng.integers(0, 1000, size=(37,)))], {'dim': 0})
    b.case('cumsum', 'bool-input', [H.B(rng.integers(0, 2, size=(3, 9)))], {'dim': 1})
    b.case('cumsum', 'bool-input-dim-2', [H.B(rng.integers(0, 2, size=(6, 2)))], {'dim': -2})
    b.error('cumsum', 'dim-out-of-range', [R(rng, (3, 4), 'float32')], {'dim': 2})
    b.error('cumsum', 'negative-dim-out-of-range', [R(rng, (3, 4), 'float64')], {'dim': -3})


def _topk(b, rng, H):
    R, dt = H.R, H.dt
    cases = [
        # tag, x shape, params (values distinct: PyTorch's order among equal values is unspecified)
        ('1d-k3', (6,), {'k': 3}),
        ('1d-k1', (5,), {'k': 1}),
        ('1d-all', (5,), {'k': 5}),
        ('2d-dim1', (3, 5), {'k': 2, 'dim': 1}),
        ('2d-dim0', (4, 3), {'k': 3, 'dim': 0}),
        ('2d-dim-1-default', (3, 4), {'k': 2}),
        ('2d-dim-2', (5, 2), {'k': 2, 'dim': -2}),
        ('3d-dim1', (2, 5, 3), {'k': 3, 'dim': 1}),
        ('3d-dim-1', (2, 3, 6), {'k': 4, 'dim': -1}),
        ('smallest-1d', (6,), {'k': 3, 'largest': False}),
        ('smallest-2d-dim0', (5, 3), {'k': 2, 'dim': 0, 'largest': False}),
        ('smallest-all', (2, 4), {'k': 4, 'dim': 1, 'largest': False}),
        ('largest-explicit', (3, 4), {'k': 2, 'dim': 1, 'largest': True}),
        ('k0', (3, 4), {'k': 0, 'dim': 1}),
        ('long-row-k5', (2, 40), {'k': 5, 'dim': 1}),
    ]
    for tag, xs, params in cases:
        for d in H.FLOAT:
            b.case('topk', '%s-%s' % (tag, dt(d)), [R(rng, xs, d, 'distinct')], params)
    inf, nan = math.inf, math.nan
    for d in H.FLOAT:
        # a real -inf must be found after other positions were taken; NaN ranks above every number
        b.case('topk', 'infinities-all-%s' % dt(d), [H.A([1.0, -inf, inf, -2.0], d)], {'k': 4}, grad=False)
        b.case('topk', 'infinities-smallest-%s' % dt(d), [H.A([1.0, -inf, inf, -2.0], d)],
               {'k': 3, 'largest': False}, grad=False)
        b.case('topk', 'nan-largest-%s' % dt(d), [H.A([[1.0, nan, 3.0, -inf], [nan, 0.5, -1.0, 2.0]], d)],
               {'k': 3, 'dim': 1}, grad=False)
        b.case('topk', 'nan-smallest-%s' % dt(d), [H.A([[1.0, nan, 3.0, -inf], [nan, 0.5, -1.0, 2.0]], d)],
               {'k': 4, 'dim': 1, 'largest': False}, grad=False)
    ints = rng.permutation(np.arange(-40, 40))[:12].reshape(3, 4)
    b.case('topk', 'int32-input', [H.I(ints)], {'k': 2, 'dim': 1})
    b.case('topk', 'int32-input-smallest', [H.I(ints)], {'k': 3, 'dim': 0, 'largest': False})
    b.case('topk', 'int32-extremes', [H.I([2 ** 31 - 1, 0, -2 ** 31, 5])], {'k': 4})
    f32, f64 = 'float32', 'float64'
    b.error('topk', 'k-larger-than-dim', [R(rng, (3, 4), f32)], {'k': 5, 'dim': 1})
    b.error('topk', 'k-negative', [R(rng, (3, 4), f64)], {'k': -1, 'dim': 1})
    b.error('topk', 'dim-out-of-range', [R(rng, (3, 4), f32)], {'k': 1, 'dim': 2})
    b.error('topk', 'negative-dim-out-of-range', [R(rng, (3, 4), f64)], {'k': 1, 'dim': -3})


def _embedding(b, rng, H):
    """Vocabularies of hundreds and thousands of rows (a gather: the work does not grow with them)."""
    R, I, dt = H.R, H.I, H.dt
    cases = [
        # tag, vocabulary, features, index shape, padding_idx
        ('vocab-300', 300, 4, (2, 5), None),
        ('vocab-1000', 1000, 2, (3, 4), None),
        ('vocab-2048', 2048, 1, (8,), None),
        ('vocab-1000-padding-idx', 1000, 1, (2, 6), 7),
        ('vocab-300-negative-padding-idx', 300, 3, (4, 2), -1),
        ('vocab-257-padding-idx-0', 257, 2, (3, 3), 0),
    ]
    for tag, vocabulary, features, shape, padding in cases:
        for d in H.FLOAT:
            index = _index(rng, shape, vocabulary)
            flat = index.reshape(-1)
            flat[0], flat[-1] = 0, vocabulary - 1  # the first and the last row
            if padding is not None:
                flat[1] = padding % vocabulary  # looked up, but learns nothing
            flat[2] = flat[3]  # a repeated index: its row's gradient adds up
            b.case('embedding', '%s-%s' % (tag, dt(d)), [I(index), R(rng, (vocabulary, features), d)],
                   {'padding_idx': padding} if padding is not None else None)
    b.error('embedding', 'vocab-1000-index-out-of-range', [I([[0, 999], [1000, 3]]), R(rng, (1000, 1), 'float32')],
            kind='any')
    b.error('embedding', 'vocab-300-negative-index', [I([5, -300]), R(rng, (300, 1), 'float64')], kind='any')
