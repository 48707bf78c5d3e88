package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/** A growable list of token ids. */
final class IdList {

    private int[] ids;
    private int size;

    IdList(int capacity) {
        ids = new int[Math.max(capacity, 8)];
    }

    void add(int id) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
        }
        ids[size++] = id;
    }

    void addAll(int[] more) {
        if (size + more.length > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(ids.length * 2, size + more.length));
        }
        System.arraycopy(more, 0, ids, size, more.length);
        size += more.length;
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(ids, size);
    }
}
