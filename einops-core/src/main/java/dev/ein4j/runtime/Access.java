package dev.ein4j.runtime;

import dev.ein4j.ir.Movement;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.List;

/**
 * How a kernel reads a node: the movement nodes between the node and the place it is read, applied
 * in order. Two accesses are the same when they map every element to the same source element;
 * the {@code probe} (the moves applied to a compact view of the node) says so, and is null when
 * one strided view cannot express the moves even on compact data.
 *
 * @param moves movement (and DETACH) nodes, the node's first consumer first
 * @param probe the moves applied to a compact view of the node, or null
 * @param buffered whether the reader needs the node's values in a buffer (it reads them at positions
 *     that data gives: a gather's source, a scatter's base), so it cannot be computed in the reader
 */
record Access(List<Node> moves, View probe, boolean buffered) {

    /**
     * @param node the node read
     * @return reading it as it is
     */
    static Access direct(Node node) {
        return new Access(List.of(), View.contiguous(node.shape()), false);
    }

    /**
     * @param node the node the moves start from
     * @param moves the moves
     * @return the access, with its probe
     */
    static Access of(Node node, List<Node> moves) {
        View probe = View.contiguous(node.shape());
        for (int i = 0; i < moves.size() && probe != null; i++) {
            probe = apply(moves.get(i), probe);
        }
        return new Access(List.copyOf(moves), probe, false);
    }

    /**
     * @param node the node the moves start from
     * @param moves the moves
     * @return the access of a reader that needs the values in a buffer
     */
    static Access buffered(Node node, List<Node> moves) {
        Access access = of(node, moves);
        return new Access(access.moves, access.probe, true);
    }

    /**
     * @param node the node these moves start from
     * @param after moves applied after these
     * @return this access followed by another
     */
    Access then(Node node, Access after) {
        if (after.moves.isEmpty() && !after.buffered) {
            return this;
        }
        if (after.buffered) {
            List<Node> all = new ArrayList<>(moves);
            all.addAll(after.moves);
            return buffered(node, all);
        }
        List<Node> all = new ArrayList<>(moves);
        all.addAll(after.moves);
        return of(node, all);
    }

    /**
     * @param move a movement or DETACH node
     * @param view the view of its source
     * @return its view, or null if not expressible
     */
    static View apply(Node move, View view) {
        return move.op() == Op.DETACH ? view : Movement.apply(move, view);
    }

    /** @return whether every move is a reshape (or DETACH): element order is kept */
    boolean keepsOrder() {
        return moves.stream().allMatch(move -> move.op() == Op.RESHAPE || move.op() == Op.DETACH);
    }

    /** @return whether a computed node may be evaluated through these moves: no padding, no recompute of broadcast or windowed values */
    /** @return whether no PAD lies on the path (a computed value cannot be read through a pad's mask) */
    boolean hasNoPadding() {
        return moves.stream().noneMatch(move -> move.op() == Op.PAD);
    }

    boolean fusesComputation() {
        if (probe == null || buffered) {
            return false;
        }
        for (Node move : moves) {
            boolean grows = move.size() > move.source(0).size(); // a broadcast or overlapping windows
            if (move.op() == Op.PAD || (move.op() == Op.EXPAND || move.op() == Op.WINDOW) && grows) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Access that)) {
            return false;
        }
        if (buffered != that.buffered) {
            return false;
        }
        return probe != null && that.probe != null ? probe.equals(that.probe) : probe == that.probe && moves.equals(that.moves);
    }

    @Override
    public int hashCode() {
        return (probe != null ? probe.hashCode() : moves.hashCode()) * 2 + (buffered ? 1 : 0);
    }
}
