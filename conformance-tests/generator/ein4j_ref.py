"""Reference semantics of ein4j patterns, written independently of einops.

Used by generate_fixtures.py and check_fixtures.py to
  * classify a call as valid, a "syntax" error or a "shape" error following the
    ein4j rules (which mirror einops), and
  * evaluate valid rearrange / reduce / repeat / einsum calls by brute force
    (gathering every element through explicit index arithmetic), optionally in
    float32 with naive sequential accumulation, which is used to size the
    float32 tolerances.

Nothing here depends on einops or torch.
"""
import math
import re

import numpy as np

NAME_RE = re.compile(r'[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?\Z')  # einops: no trailing '_'
DIGITS_RE = re.compile(r'[0-9]+\Z')
ELL = '\u2026'  # internal stand-in for '...'
REDUCTIONS = ('sum', 'mean', 'max', 'min', 'prod')


class PatternError(Exception):
    def __init__(self, kind, msg):
        super().__init__('%s: %s' % (kind, msg))
        self.kind = kind


def _syntax(msg):
    raise PatternError('syntax', msg)


def _shape(msg):
    raise PatternError('shape', msg)


class Anon:
    """An anonymous axis such as `2`; every occurrence is its own axis."""
    __slots__ = ('n',)

    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return 'Anon(%d)' % self.n


class Group:
    """One dimension of an operand: an ellipsis ('ell') or a composition ('comp').

    A bare name is a composition of one atom, `1` and `()` are empty
    compositions (unit axes)."""
    __slots__ = ('kind', 'atoms', 'paren')

    def __init__(self, kind, atoms=(), paren=False):
        self.kind = kind
        self.atoms = list(atoms)
        self.paren = paren

    def __repr__(self):
        if self.kind == 'ell':
            return '...'
        return '(' + ' '.join(map(str, self.atoms)) + ')'


# ----------------------------------------------------------------- parsing

def parse_expr(s, allow_dup=False):
    """Parse one side (or one einsum operand) in einops notation."""
    if '.' in s:
        if s.count('...') != 1 or s.count('.') != 3:
            _syntax('dots are only allowed as one ellipsis "..."')
        s = s.replace('...', ELL)
    groups = []
    state = {'cur': None}

    def flush(tok):
        if tok == '':
            return
        cur = state['cur']
        if ELL in tok:
            if tok != ELL:
                _syntax('ellipsis glued to a name: %r' % tok)
            if cur is not None:
                raise NotImplementedError('ellipsis inside a composition')
            groups.append(Group('ell'))
            return
        if DIGITS_RE.match(tok):
            n = int(tok)
            if n == 0:
                _syntax('anonymous axis of length 0')
            if n == 1:
                if cur is None:
                    groups.append(Group('comp', [], False))
                return
            atom = Anon(n)
        elif NAME_RE.match(tok):
            atom = tok
        else:
            _syntax('invalid axis name %r' % tok)
        if cur is None:
            groups.append(Group('comp', [atom], False))
        else:
            cur.append(atom)

    tok = ''
    for ch in s:
        if ch in '() \t\n':
            flush(tok)
            tok = ''
            if ch == '(':
                if state['cur'] is not None:
                    _syntax('nested parentheses')
                state['cur'] = []
            elif ch == ')':
                if state['cur'] is None:
                    _syntax('unbalanced ")"')
                groups.append(Group('comp', state['cur'], True))
                state['cur'] = None
        else:
            tok += ch
    flush(tok)
    if state['cur'] is not None:
        _syntax('unbalanced "("')
    names = side_names(groups)
    if not allow_dup and len(names) != len(set(names)):
        _syntax('duplicate axis name')
    return groups


def side_names(groups):
    return [a for g in groups if g.kind == 'comp' for a in g.atoms if isinstance(a, str)]


def side_anons(groups):
    return [a for g in groups if g.kind == 'comp' for a in g.atoms if isinstance(a, Anon)]


def has_ell(groups):
    return any(g.kind == 'ell' for g in groups)


def identifiers(groups):
    ids = set(side_names(groups))
    if has_ell(groups):
        ids.add(ELL)
    return ids


def split_arrow(pattern):
    if pattern.count('->') != 1:
        _syntax('pattern needs exactly one "->"')
    left, right = pattern.split('->')
    return left, right


# ----------------------------------------------------------------- shapes

def match_dims(groups, shape):
    """Align groups with the dims of `shape`; returns ([(group, dim)], ellipsis shape or None)."""
    n_fixed = sum(1 for g in groups if g.kind != 'ell')
    if has_ell(groups):
        if len(shape) < n_fixed:
            _shape('tensor has %d dims, pattern needs at least %d' % (len(shape), n_fixed))
    elif len(shape) != n_fixed:
        _shape('tensor has %d dims, pattern needs %d' % (len(shape), n_fixed))
    n_ell = len(shape) - n_fixed
    pairs, ell_shape, i = [], None, 0
    for g in groups:
        if g.kind == 'ell':
            ell_shape = tuple(shape[i:i + n_ell])
            i += n_ell
        else:
            pairs.append((g, shape[i]))
            i += 1
    return pairs, ell_shape


def resolve_group(g, dim, lengths):
    """True when the group is resolved (and consistent), False when >= 2 atoms are unknown."""
    known, unknown = 1, []
    for a in g.atoms:
        if isinstance(a, Anon):
            known *= a.n
        elif a in lengths:
            known *= lengths[a]
        else:
            unknown.append(a)
    if not unknown:
        if known != dim:
            _shape('axis group %r has length %d, expected %d' % (g, dim, known))
        return True
    if len(unknown) > 1:
        return False
    if known == 0 or dim % known != 0:
        _shape('length %d of %r is not divisible by %d' % (dim, g, known))
    lengths[unknown[0]] = dim // known
    return True


def broadcast_shapes(shapes):
    m = max((len(s) for s in shapes), default=0)
    out = [1] * m
    for s in shapes:
        for j, d in enumerate(s):
            k = m - len(s) + j
            if d == out[k] or d == 1:
                continue
            if out[k] == 1:
                out[k] = d
            else:
                _shape('ellipsis dims %r do not broadcast' % (shapes,))
    return tuple(out)


class Plan:
    """Everything the brute-force evaluator needs."""

    def __init__(self, op_groups, out_groups, lengths, op_ell, ell_shape, combine):
        self.op_groups = op_groups      # list (per input) of list of Group
        self.out_groups = out_groups    # list of Group
        self.lengths = lengths          # name -> length
        self.op_ell = op_ell            # per input: ellipsis shape or None
        self.ell_shape = ell_shape      # broadcast ellipsis shape (tuple)
        self.combine = combine          # sum / mean / max / min / prod

    def atom_len(self, a):
        return a.n if isinstance(a, Anon) else self.lengths[a]

    def out_shape(self):
        shape = []
        for g in self.out_groups:
            if g.kind == 'ell':
                shape.extend(self.ell_shape)
            else:
                shape.append(math.prod(self.atom_len(a) for a in g.atoms))
        return tuple(shape)


def plan_rrr(op, pattern, shape, axes=None, reduction=None):
    """rearrange / reduce / repeat."""
    axes = dict(axes or {})
    left_s, right_s = split_arrow(pattern)
    left = parse_expr(left_s)
    right = parse_expr(right_s)
    if has_ell(right) and not has_ell(left):
        _syntax('ellipsis on the right but not on the left')
    li, ri = identifiers(left), identifiers(right)
    if op == 'rearrange':
        if any(a.n != 1 for a in side_anons(left) + side_anons(right)):
            _syntax('anonymous axes other than 1 in rearrange')
        if li != ri:
            _syntax('rearrange sides have different identifiers')
        combine = 'sum'
    elif op == 'reduce':
        if reduction not in REDUCTIONS:
            _syntax('unknown reduction %r' % reduction)
        if side_anons(right):
            _syntax('anonymous axis on the right of reduce')
        if ri - li:
            _syntax('names on the right of reduce that are not on the left')
        combine = reduction
    elif op == 'repeat':
        if side_anons(left):
            _syntax('anonymous axis on the left of repeat')
        if li - ri:
            _syntax('names on the left of repeat missing on the right')
        combine = 'sum'
    else:
        raise ValueError(op)
    # ---- shape phase
    all_names = set(side_names(left)) | set(side_names(right))
    for k in axes:
        if k not in all_names:
            _shape('axis %r is not used in the pattern' % k)
    lengths = dict(axes)
    pairs, ell_shape = match_dims(left, shape)
    for g, dim in pairs:
        if not resolve_group(g, dim, lengths):
            _shape('cannot infer the lengths of %r' % g)
    for name in side_names(right):
        if name not in lengths:
            _shape('new axis %r needs a length' % name)
    return Plan([left], right, lengths, [ell_shape], tuple(ell_shape or ()), combine)


def _resolve_operands(op_groups, shapes):
    if len(shapes) != len(op_groups):
        _shape('%d tensors for %d operands' % (len(shapes), len(op_groups)))
    pending, op_ell = [], []
    for groups, shape in zip(op_groups, shapes):
        pairs, ell = match_dims(groups, shape)
        pending.extend(pairs)
        op_ell.append(ell)
    ell_shape = broadcast_shapes([e for e in op_ell if e is not None])
    lengths = {}
    progress = True
    while pending and progress:
        progress = False
        rest = []
        for g, dim in pending:
            if resolve_group(g, dim, lengths):
                progress = True
            else:
                rest.append((g, dim))
        pending = rest
    if pending:
        _shape('cannot infer axis lengths of %r' % [g for g, _ in pending])
    return lengths, op_ell, ell_shape


def plan_einsum_einops(pattern, shapes):
    lhs, rhs = split_arrow(pattern)
    op_groups = [parse_expr(o, allow_dup=True) for o in lhs.split(',')]
    out = parse_expr(rhs, allow_dup=False)
    in_names = set()
    for gs in op_groups:
        in_names |= set(side_names(gs))
    for a in side_anons(out):
        _syntax('anonymous axis %d in einsum output' % a.n)
    for a in side_names(out):
        if a not in in_names:
            _syntax('output axis %r is in no input' % a)
    # an output ellipsis with none among the inputs stands for no axes (numpy and einops)
    lengths, op_ell, ell_shape = _resolve_operands(op_groups, shapes)
    return Plan(op_groups, out, lengths, op_ell, ell_shape, 'sum')


def _parse_np_operand(s):
    if '.' in s:
        if s.count('...') != 1 or s.count('.') != 3:
            _syntax('dots are only allowed as one ellipsis')
        s = s.replace('...', ELL)
    out = []
    for ch in s:
        if ch == ELL:
            out.append(Group('ell'))
        elif ch.isascii() and ch.isalpha():
            out.append(Group('comp', [ch]))
        else:
            _syntax('invalid subscript character %r' % ch)
    return out


def numpy_output_letters(lhs):
    """Implicit output of numpy notation: ellipsis first, then letters appearing once, sorted."""
    letters = [ch for ch in lhs.replace('...', '') if ch.isalpha()]
    once = sorted(ch for ch in set(letters) if letters.count(ch) == 1)
    return ('...' if '...' in lhs else '') + ''.join(once)


def plan_einsum_numpy(pattern, shapes):
    if pattern.count('->') > 1:
        _syntax('two "->"')
    if '->' in pattern:
        lhs, rhs = pattern.split('->')
    else:
        lhs, rhs = pattern, None
    op_groups = [_parse_np_operand(o) for o in lhs.split(',')]
    if rhs is None:
        rhs = numpy_output_letters(lhs)
    out = _parse_np_operand(rhs)
    if len(side_names(out)) != len(set(side_names(out))):
        _syntax('repeated output letter')
    in_names = set()
    for gs in op_groups:
        in_names |= set(side_names(gs))
    for a in side_names(out):
        if a not in in_names:
            _syntax('output letter %r is in no input' % a)
    # an output ellipsis with none among the inputs stands for no axes (numpy and einops)
    lengths, op_ell, ell_shape = _resolve_operands(op_groups, shapes)
    return Plan(op_groups, out, lengths, op_ell, ell_shape, 'sum')


def pack_axes(pattern):
    toks = pattern.split()
    if toks.count('*') != 1:
        _syntax('pack pattern needs exactly one "*"')
    if len(toks) != len(set(toks)):
        _syntax('duplicate names in pack pattern')
    for t in toks:
        if t != '*' and not NAME_RE.match(t):
            _syntax('invalid name %r in pack pattern' % t)
    i = toks.index('*')
    return i, len(toks) - i - 1


def check_pack(pattern, shapes):
    n_before, n_after = pack_axes(pattern)
    ref_before = ref_after = None
    for s in shapes:
        if len(s) < n_before + n_after:
            _shape('input has too few dims for %r' % pattern)
        before, after = tuple(s[:n_before]), tuple(s[len(s) - n_after:])
        if ref_before is None:
            ref_before, ref_after = before, after
        elif (before, after) != (ref_before, ref_after):
            _shape('non-* axes differ between inputs')
    return n_before, n_after


def resolve_packed_shapes(pattern, shape, packed_shapes):
    n_before, n_after = pack_axes(pattern)
    if len(shape) != n_before + n_after + 1:
        _shape('packed tensor has %d dims, %r needs %d' % (len(shape), pattern, n_before + n_after + 1))
    star = shape[n_before]
    n_unknown = sum(p.count(-1) for p in packed_shapes)
    if n_unknown > 1:
        _shape('more than one -1 in packed_shapes')
    for p in packed_shapes:
        for d in p:
            if d < -1:
                _shape('negative length in packed_shapes')
    known = sum(math.prod(p) for p in packed_shapes if -1 not in p)
    result = [list(p) for p in packed_shapes]
    if n_unknown == 0:
        if known != star:
            _shape('packed_shapes total %d != %d' % (known, star))
    else:
        rest = star - known
        for p in result:
            if -1 in p:
                other = math.prod(d for d in p if d != -1)
                if rest < 0 or other == 0 or rest % other != 0:
                    _shape('cannot infer -1 in packed_shapes')
                p[p.index(-1)] = rest // other
    return result


def plan_case(case_like):
    """Validate a call (a dict with op, pattern, ... and `shapes`); return a Plan or
    None (pack/unpack), or raise PatternError."""
    op = case_like['op']
    pattern = case_like['pattern']
    shapes = case_like['shapes']
    if op in ('rearrange', 'reduce', 'repeat'):
        if len(shapes) != 1:
            _shape('%s takes one tensor' % op)
        return plan_rrr(op, pattern, shapes[0], case_like.get('axes'), case_like.get('reduction'))
    if op == 'einsum':
        if case_like.get('syntax', 'einops') == 'numpy':
            return plan_einsum_numpy(pattern, shapes)
        return plan_einsum_einops(pattern, shapes)
    if op == 'pack':
        check_pack(pattern, shapes)
        return None
    if op == 'unpack':
        pack_axes(pattern)
        if len(shapes) != 1:
            _shape('unpack takes one tensor')
        resolve_packed_shapes(pattern, shapes[0], case_like['packed_shapes'])
        return None
    raise ValueError(op)


# ----------------------------------------------------------------- brute force

class _Layout:
    def __init__(self, plan):
        self.plan = plan
        self._anon = {}
        for gs in plan.op_groups + [plan.out_groups]:
            for g in gs:
                if g.kind == 'comp':
                    for a in g.atoms:
                        if isinstance(a, Anon):
                            self._anon[id(a)] = a.n
        M = len(plan.ell_shape)
        out_axes = []
        for g in plan.out_groups:
            if g.kind == 'ell':
                out_axes += [('ell', k) for k in range(M)]
            else:
                out_axes += [self.key(a) for a in g.atoms]
        red_axes = []
        for gs, ell in zip(plan.op_groups, plan.op_ell):
            for g in gs:
                if g.kind == 'ell':
                    keys = [('ell', M - len(ell) + j) for j in range(len(ell))]
                else:
                    keys = [self.key(a) for a in g.atoms]
                for k in keys:
                    if k not in out_axes and k not in red_axes:
                        red_axes.append(k)
        self.out_axes, self.red_axes = out_axes, red_axes
        self.order = out_axes + red_axes
        self.sizes = [self.klen(k) for k in self.order]
        n = len(self.order)
        self.idx = {}
        for pos, k in enumerate(self.order):
            shp = [1] * n
            shp[pos] = -1
            self.idx[k] = np.arange(self.sizes[pos]).reshape(shp) if n else np.zeros((), dtype=np.int64)
        self.zero = np.zeros([1] * n, dtype=np.int64)

    @staticmethod
    def key(a):
        return ('anon', id(a)) if isinstance(a, Anon) else ('n', a)

    def klen(self, k):
        if k[0] == 'ell':
            return self.plan.ell_shape[k[1]]
        if k[0] == 'anon':
            return self._anon[k[1]]
        return self.plan.lengths[k[1]]

    def group_index(self, groups, ell):
        """Index arrays (one per dim) into a tensor laid out by `groups`."""
        M = len(self.plan.ell_shape)
        out = []
        for g in groups:
            if g.kind == 'ell':
                for j, d in enumerate(ell):
                    gd = M - len(ell) + j
                    if d == 1 and self.plan.ell_shape[gd] != 1:
                        out.append(self.zero)
                    else:
                        out.append(self.idx[('ell', gd)])
            else:
                ix = self.zero
                for a in g.atoms:
                    ix = ix * self.plan.atom_len(a) + self.idx[self.key(a)]
                out.append(ix)
        return out


def bf_eval(plan, tensors, dtype=np.float64):
    """Evaluate by brute force; sums and products accumulate sequentially in `dtype`."""
    lay = _Layout(plan)
    grid = tuple(lay.sizes)
    vals = None
    for t, gs, ell in zip(tensors, plan.op_groups, plan.op_ell):
        t = np.asarray(t, dtype=dtype)
        v = np.broadcast_to(t[tuple(lay.group_index(gs, ell))], grid)
        vals = v if vals is None else (vals * v).astype(dtype)
    n_out = len(lay.out_axes)
    out_grid = grid[:n_out]
    R = math.prod(grid[n_out:])
    flat = np.ascontiguousarray(vals).reshape(out_grid + (R,))
    c = plan.combine
    if c in ('sum', 'mean'):
        acc = np.zeros(out_grid, dtype=dtype)
        for r in range(R):
            acc = (acc + flat[..., r]).astype(dtype)
        if c == 'mean':
            acc = (acc / dtype(R)).astype(dtype)
    elif c == 'prod':
        acc = np.ones(out_grid, dtype=dtype)
        for r in range(R):
            acc = (acc * flat[..., r]).astype(dtype)
    elif c == 'max':
        acc = flat.max(axis=-1)
    elif c == 'min':
        acc = flat.min(axis=-1)
    else:
        raise ValueError(c)
    out = np.zeros(plan.out_shape(), dtype=dtype)
    oidx = [np.asarray(ix).reshape(np.shape(ix)[:n_out]) for ix in lay.group_index(plan.out_groups, plan.ell_shape)]
    if oidx:
        out[tuple(oidx)] = acc
    else:
        out[()] = acc
    return out


def bf_grad(plan, tensors, upstream, dtype=np.float64):
    """VJP for sum / mean combines, accumulated sequentially (np.add.at) in `dtype`."""
    if plan.combine not in ('sum', 'mean'):
        raise ValueError('bf_grad only handles sum and mean')
    lay = _Layout(plan)
    grid = tuple(lay.sizes)
    n_out = len(lay.out_axes)
    R = math.prod(grid[n_out:])
    up = np.asarray(upstream, dtype=dtype)
    oidx = lay.group_index(plan.out_groups, plan.ell_shape)
    upg = np.broadcast_to(up[tuple(oidx)] if oidx else up[()], grid)
    if plan.combine == 'mean':
        upg = (upg / dtype(R)).astype(dtype)
    vals, idxs = [], []
    for t, gs, ell in zip(tensors, plan.op_groups, plan.op_ell):
        t = np.asarray(t, dtype=dtype)
        ix = lay.group_index(gs, ell)
        idxs.append(ix)
        vals.append(np.broadcast_to(t[tuple(ix)], grid))
    grads = []
    for k, t in enumerate(tensors):
        contrib = upg
        for m, v in enumerate(vals):
            if m != k:
                contrib = (contrib * v).astype(dtype)
        g = np.zeros(np.shape(t), dtype=dtype)
        c = np.broadcast_to(contrib, grid)
        if g.ndim == 0:
            acc = dtype(0)
            for v in c.ravel():
                acc = dtype(acc + v)
            g[()] = acc
        else:
            ix = tuple(np.broadcast_to(i, grid) for i in idxs[k])
            np.add.at(g, ix, c)
        grads.append(g)
    return grads
