package dev.ein4j.benchmarks.cli;

/**
 * One prepared workload: its inputs exist and are realized; {@link #run()} is one timed unit.
 */
interface Trial {

    /** Runs one timed unit: builds the graph and realizes its results (synchronizing the backend). */
    void run();

    /**
     * @return the kernels the graph of one run would execute (tensor.explain()), or a note
     */
    String explain();

    /** @return a line about the state after the timed runs (e.g. the last loss), or null */
    default String summary() {
        return null;
    }
}
