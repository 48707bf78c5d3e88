package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import java.util.Arrays;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tile arrays kept between kernel launches. A segment evaluator needs one array per instruction
 * per task (up to {@link SegmentEvaluator#TILE} elements each); allocating them afresh for every
 * launch meant zeroing megabytes for kernels whose data is a few kilobytes (a transformer block's
 * layer norm: about a quarter of a ViT forward pass was {@code new float[2048]}). Evaluators take
 * their arrays here and give them back when their launch ends; every instruction writes its tile
 * before reading it, so a reused array needs no clearing.
 *
 * <p>The arena keeps at most {@link #budgetBytes()} of arrays (1/64 of the maximum heap, at most
 * 64 MiB); arrays given back beyond that are left to the garbage collector. With
 * {@code -Dein4j.cpu.tiles.poison=true} (the module's tests) arrays are filled with NaN, -1 or
 * true when given back, so an evaluator that read a tile before writing it fails a test instead of
 * reading a stale value. Thread-safe: evaluators on any worker take and give.
 */
final class TileArena {

    static final TileArena SHARED = new TileArena(defaultBudget());

    private static final boolean POISON = Boolean.getBoolean("ein4j.cpu.tiles.poison");

    /** Free arrays by (type, length). */
    private final Map<Long, Queue<Object>> free = new ConcurrentHashMap<>();
    private final AtomicLong keptBytes = new AtomicLong();
    private final long budgetBytes;

    /** @param budgetBytes the most bytes of free arrays kept */
    TileArena(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    private static long defaultBudget() {
        return Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 64);
    }

    /** @return the most bytes of free arrays kept */
    long budgetBytes() {
        return budgetBytes;
    }

    /** @return the bytes of free arrays kept now */
    long keptBytes() {
        return keptBytes.get();
    }

    /**
     * @param dtype the tile's element type
     * @param length its length
     * @return an array of exactly that type and length, with arbitrary contents
     */
    Object take(DType dtype, int length) {
        Queue<Object> queue = free.get(key(dtype, length));
        Object array = queue == null ? null : queue.poll();
        if (array == null) {
            return Tiles.allocate(dtype, length);
        }
        keptBytes.addAndGet(-bytes(dtype, length));
        return array;
    }

    /**
     * Gives an array back; the caller must not use it afterwards.
     *
     * @param dtype its element type
     * @param array an array from {@link #take}
     */
    void give(DType dtype, Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        long size = bytes(dtype, length);
        if (keptBytes.addAndGet(size) > budgetBytes) {
            keptBytes.addAndGet(-size);
            return;
        }
        if (POISON) {
            poison(array);
        }
        free.computeIfAbsent(key(dtype, length), k -> new ConcurrentLinkedQueue<>()).add(array);
    }

    private static long key(DType dtype, int length) {
        return ((long) dtype.ordinal() << 32) | length;
    }

    private static long bytes(DType dtype, int length) {
        return (long) length * switch (dtype) {
            case FLOAT64 -> 8;
            case FLOAT32, INT32 -> 4;
            case BOOL -> 1;
        };
    }

    private static void poison(Object array) {
        if (array instanceof float[] values) {
            Arrays.fill(values, Float.NaN);
        } else if (array instanceof double[] values) {
            Arrays.fill(values, Double.NaN);
        } else if (array instanceof int[] values) {
            Arrays.fill(values, -1);
        } else if (array instanceof boolean[] values) {
            Arrays.fill(values, true);
        }
    }
}
