package dev.ein4j.benchmarks.cli;

/** What the figure column of a result line measures. */
enum Unit {

    /** 10⁹ floating-point operations per second: work = operations per run. */
    GFLOPS("GFLOP/s"),
    /** 10⁹ bytes per second: work = bytes read and written per run. */
    GBPS("GB/s"),
    /** milliseconds per run (a training step): work is ignored. */
    MS_PER_STEP("ms/step"),
    /** milliseconds per run (a model's forward pass over a batch): work is ignored. */
    MS_PER_BATCH("ms/batch"),
    /** microseconds per call: work = calls per run. */
    US_PER_CALL("us/call"),
    /** generated tokens per second: work = tokens per run. */
    TOKENS_PER_SECOND("tokens/s");

    private final String label;

    Unit(String label) {
        this.label = label;
    }

    /** @return the unit as printed */
    String label() {
        return label;
    }

    /**
     * @param work operations, bytes or calls per run
     * @param medianMs the median run time in milliseconds
     * @return the figure
     */
    double figure(double work, double medianMs) {
        return switch (this) {
            case GFLOPS, GBPS -> work / (medianMs * 1e6);
            case MS_PER_STEP, MS_PER_BATCH -> medianMs;
            case US_PER_CALL -> medianMs * 1e3 / work;
            case TOKENS_PER_SECOND -> work / (medianMs / 1e3);
        };
    }
}
