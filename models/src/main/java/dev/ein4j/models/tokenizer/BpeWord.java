package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/**
 * One word during BPE merging: a doubly linked list of symbols (token ids) and a min-heap of the
 * merges available between neighbours, ordered by rank, then position.
 *
 * <p>The loop is Hugging Face's {@code Word::merge_all}: pop the best merge; skip it if its left
 * symbol was absorbed, has no right neighbour, or the pair there no longer merges into the same
 * token (a stale entry); otherwise merge and push the merges the new symbol forms with its
 * neighbours. The result is the same as repeatedly merging the lowest-ranked adjacent pair, leftmost
 * first, in O(n log n).
 */
final class BpeWord {

    private int[] ids = new int[16];
    private int[] previous = new int[16];
    private int[] next = new int[16];
    private boolean[] removed = new boolean[16];
    private int size;

    private long[] heapKeys = new long[16];
    private int[] heapMergedIds = new int[16];
    private int heapSize;

    /** @param id the next symbol of the word */
    void add(int id) {
        if (size == ids.length) {
            int capacity = size * 2;
            ids = Arrays.copyOf(ids, capacity);
            previous = Arrays.copyOf(previous, capacity);
            next = Arrays.copyOf(next, capacity);
            removed = Arrays.copyOf(removed, capacity);
        }
        ids[size] = id;
        previous[size] = size - 1;
        next[size] = -1;
        if (size > 0) {
            next[size - 1] = size;
        }
        size++;
    }

    /**
     * Merges the word completely.
     *
     * @param merges the model's merges
     */
    void mergeAll(MergeTable merges) {
        for (int i = 0; i + 1 < size; i++) {
            push(merges, i, ids[i], ids[i + 1]);
        }
        while (heapSize > 0) {
            long top = heapKeys[0];
            int mergedId = heapMergedIds[0];
            pop();
            int position = (int) top;
            if (removed[position] || next[position] < 0) {
                continue;
            }
            int right = next[position];
            int slot = merges.find(ids[position], ids[right]);
            if (slot < 0 || merges.mergedId(slot) != mergedId) {
                continue; // stale: the pair here changed since this entry was pushed
            }
            ids[position] = mergedId;
            removed[right] = true;
            next[position] = next[right];
            if (next[right] >= 0) {
                previous[next[right]] = position;
            }
            if (previous[position] >= 0) {
                push(merges, previous[position], ids[previous[position]], mergedId);
            }
            if (next[position] >= 0) {
                push(merges, position, mergedId, ids[next[position]]);
            }
        }
    }

    /**
     * @param out where to append the ids of the merged word, in order
     */
    void appendTo(IdList out) {
        for (int i = 0; i < size; i++) {
            if (!removed[i]) {
                out.add(ids[i]);
            }
        }
    }

    private void push(MergeTable merges, int position, int left, int right) {
        int slot = merges.find(left, right);
        if (slot < 0) {
            return;
        }
        if (heapSize == heapKeys.length) {
            heapKeys = Arrays.copyOf(heapKeys, heapSize * 2);
            heapMergedIds = Arrays.copyOf(heapMergedIds, heapSize * 2);
        }
        long key = ((long) merges.rank(slot) << 32) | position;
        int mergedId = merges.mergedId(slot);
        int at = heapSize++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heapKeys[parent] <= key) {
                break;
            }
            heapKeys[at] = heapKeys[parent];
            heapMergedIds[at] = heapMergedIds[parent];
            at = parent;
        }
        heapKeys[at] = key;
        heapMergedIds[at] = mergedId;
    }

    private void pop() {
        heapSize--;
        long key = heapKeys[heapSize];
        int mergedId = heapMergedIds[heapSize];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && heapKeys[child + 1] < heapKeys[child]) {
                child++;
            }
            if (heapKeys[child] >= key) {
                break;
            }
            heapKeys[at] = heapKeys[child];
            heapMergedIds[at] = heapMergedIds[child];
            at = child;
        }
        if (heapSize > 0) {
            heapKeys[at] = key;
            heapMergedIds[at] = mergedId;
        }
    }
}
