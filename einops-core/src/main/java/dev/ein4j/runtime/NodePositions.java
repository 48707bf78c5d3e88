package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import java.util.Arrays;

/**
 * Node → int, keyed by the node's unique id: an open-addressing table without boxing or identity
 * hashes, for the walk every realization makes over its graph (a replayed step's only per-node work).
 */
final class NodePositions {

    private static final long EMPTY = 0; // node ids start at 1

    private long[] keys = new long[2048];
    private int[] values = new int[2048];
    private int size;

    /** @return the node's value, or {@code absent} */
    int get(Node node, int absent) {
        long id = node.id();
        int mask = keys.length - 1;
        for (int slot = mix(id) & mask; ; slot = (slot + 1) & mask) {
            long key = keys[slot];
            if (key == id) {
                return values[slot];
            }
            if (key == EMPTY) {
                return absent;
            }
        }
    }

    /** @return whether the node has a value */
    boolean contains(Node node) {
        return get(node, Integer.MIN_VALUE) != Integer.MIN_VALUE;
    }

    /** Sets the node's value. */
    void put(Node node, int value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        long id = node.id();
        int mask = keys.length - 1;
        for (int slot = mix(id) & mask; ; slot = (slot + 1) & mask) {
            if (keys[slot] == id) {
                values[slot] = value;
                return;
            }
            if (keys[slot] == EMPTY) {
                keys[slot] = id;
                values[slot] = value;
                size++;
                return;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int slot = mix(oldKeys[i]) & mask;
                while (keys[slot] != EMPTY) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                values[slot] = oldValues[i];
            }
        }
    }

    private static int mix(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public String toString() {
        return "NodePositions[" + size + " of " + Arrays.stream(keys).filter(key -> key != EMPTY).count() + "]";
    }
}
