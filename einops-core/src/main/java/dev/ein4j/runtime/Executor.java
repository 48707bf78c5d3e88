package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.backend.KernelCall;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.runtime.Schedule.Launch;
import dev.ein4j.runtime.Schedule.Origin;
import dev.ein4j.runtime.Schedule.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Runs a {@link Schedule} for one walked graph: the walk's leaves are its leaf values, its CONST
 * and RAND values the launches' parameters. Launch outputs take buffers by liveness
 * ({@link MemoryPlanner}), an intermediate goes back once its last reader is submitted, and each
 * requested node is bound to its result. A failed submission releases everything it took.
 */
final class Executor {

    private Executor() {
    }

    /**
     * @param schedule the schedule
     * @param walk the graph it runs for (same signature as the one it was built from)
     * @param backend the backend
     */
    static void run(Schedule schedule, GraphWalk walk, Backend backend) {
        MemoryPlanner planner = new MemoryPlanner(backend);
        DeviceBuffer[] buffers = new DeviceBuffer[schedule.values.size()];
        Set<DeviceBuffer> inUse = Collections.newSetFromMap(new IdentityHashMap<>());
        long[] parameters = walk.parameters();
        boolean done = false;
        try {
            for (Value value : schedule.values) {
                if (value.origin == Origin.LEAF) {
                    buffers[value.id] = walk.leafData.get(value.leaf).storage().buffer();
                } else if (value.origin == Origin.TRANSFERRED) {
                    DeviceBuffer local = planner.take(value.dtype, value.size);
                    inUse.add(local);
                    backend.write(local, readForeign(walk.leafData.get(value.leaf)));
                    buffers[value.id] = local;
                }
            }
            List<Launch> launches = schedule.launches;
            int nextGroup = 0;
            for (int i = 0; i < launches.size(); ) {
                RowGroups.Group group = nextGroup < schedule.rowGroups.size() ? schedule.rowGroups.get(nextGroup) : null;
                int last = group != null && group.first() == i ? group.last() : i;
                if (last == i) {
                    Launch launch = launches.get(i);
                    backend.execute(launch.kernel(), outputs(launch, walk, buffers, inUse, planner), inputs(launch, buffers),
                            launch.parameters(parameters));
                    finishLaunch(launch, i, buffers, inUse, planner);
                    i++;
                    continue;
                }
                nextGroup++;
                // every output of a run is taken before any input goes back: no buffer is reused inside it
                List<KernelCall> calls = new ArrayList<>(last - i + 1);
                for (int j = i; j <= last; j++) {
                    Launch launch = launches.get(j);
                    calls.add(new KernelCall(launch.kernel(), outputs(launch, walk, buffers, inUse, planner),
                            inputs(launch, buffers), launch.parameters(parameters)));
                }
                if (!updatesInPlace(calls)) {
                    backend.executeRowBlocks(calls, group.rows());
                } else {
                    for (KernelCall call : calls) {
                        backend.execute(call.kernel(), call.outputs(), call.inputs(), call.parameters());
                    }
                }
                for (int j = i; j <= last; j++) {
                    finishLaunch(launches.get(j), j, buffers, inUse, planner);
                }
                i = last + 1;
            }
            bind(schedule, walk, backend, buffers);
            RuntimeContext.global().countLaunches(launches.size());
            done = true;
        } finally {
            planner.releaseAll();
            if (!done) {
                inUse.forEach(backend::release); // a failed submission: nothing of this realization survives
            }
        }
    }

    private static List<DeviceBuffer> outputs(Launch launch, GraphWalk walk, DeviceBuffer[] buffers, Set<DeviceBuffer> inUse,
                                              MemoryPlanner planner) {
        List<DeviceBuffer> outputs = new ArrayList<>(launch.outputs().size());
        for (Value output : launch.outputs()) {
            DeviceBuffer buffer = buffers[output.id]; // set already: a scatter updates its base's copy
            if (buffer == null) {
                buffer = output.into >= 0 ? walk.leafData.get(output.into).storage().buffer() : planner.take(output.dtype, output.size);
                if (output.into < 0) {
                    inUse.add(buffer);
                }
                buffers[output.id] = buffer;
            }
            outputs.add(buffer);
        }
        return outputs;
    }

    private static List<DeviceBuffer> inputs(Launch launch, DeviceBuffer[] buffers) {
        List<DeviceBuffer> inputs = new ArrayList<>(launch.inputs().size());
        for (Value input : launch.inputs()) {
            inputs.add(buffers[input.id]);
        }
        return inputs;
    }

    /**
     * Whether a call writes a buffer that it or an earlier call reads, or that another call writes (an
     * assignment into a tensor the run reads): interleaved over rows, the earlier call's later rows would
     * see the new values. Later calls read earlier results row by row, as {@link RowGroups} checked.
     */
    private static boolean updatesInPlace(List<KernelCall> calls) {
        Set<DeviceBuffer> read = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<DeviceBuffer> written = Collections.newSetFromMap(new IdentityHashMap<>());
        for (KernelCall call : calls) {
            read.addAll(call.inputs());
            for (DeviceBuffer output : call.outputs()) {
                if (read.contains(output) || !written.add(output)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Gives back what launch {@code index} was the last to read, and its outputs that nothing reads. */
    private static void finishLaunch(Launch launch, int index, DeviceBuffer[] buffers, Set<DeviceBuffer> inUse, MemoryPlanner planner) {
        for (Value input : launch.inputs()) {
            if (input.lastUse == index) {
                finish(input, buffers, inUse, planner);
            }
        }
        for (Value output : launch.outputs()) {
            if (output.lastUse < 0 || output.lastUse == index) {
                finish(output, buffers, inUse, planner); // written, never read: an unused extra output
            }
        }
    }

    /** Gives an intermediate's buffer back to the free list once nothing later reads it. */
    private static void finish(Value value, DeviceBuffer[] buffers, Set<DeviceBuffer> inUse, MemoryPlanner planner) {
        if (!value.pinned && value.origin != Origin.LEAF && value.into < 0 && inUse.remove(buffers[value.id])) {
            planner.giveBack(buffers[value.id]);
        }
    }

    private static void bind(Schedule schedule, GraphWalk walk, Backend backend, DeviceBuffer[] buffers) {
        Storage[] storages = new Storage[schedule.values.size()];
        for (Schedule.Binding binding : schedule.bindings) {
            Value value = binding.value();
            Storage storage = storages[value.id];
            if (storage == null) {
                storage = value.origin == Origin.LEAF ? walk.leafData.get(value.leaf).storage() : new Storage(backend, buffers[value.id]);
                storages[value.id] = storage;
            }
            Node node = walk.order.get(binding.position());
            Lifetimes.bind(node, new Realized(storage, binding.view()));
        }
        for (Storage storage : storages) {
            if (storage != null && storage.references() == 0) {
                storage.free(); // every node it was made for was bound meanwhile by another thread
            }
        }
    }

    /** Data of another backend, compact, on the host. */
    static HostData readForeign(Realized foreign) {
        Backend owner = foreign.storage().backend();
        if (foreign.isCompact()) {
            return owner.read(foreign.storage().buffer());
        }
        DType dtype = foreign.storage().dtype();
        DeviceBuffer compact = Allocation.allocate(owner, dtype, foreign.view().size());
        try {
            owner.execute(Kernel.copy(dtype, foreign.view(), dtype), List.of(compact), List.of(foreign.storage().buffer()),
                    Parameters.NONE);
            return owner.read(compact);
        } finally {
            owner.release(compact);
        }
    }
}
