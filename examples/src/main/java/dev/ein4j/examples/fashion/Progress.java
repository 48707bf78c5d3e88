package dev.ein4j.examples.fashion;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Training progress: a progress bar (images done, loss, images per second) on a terminal, plain
 * lines every tenth of an epoch otherwise (a log, CI).
 */
final class Progress implements AutoCloseable {

    private final ProgressBar bar;
    private final String task;
    private final int total;
    private final long start = System.nanoTime();
    private int nextLine;

    private Progress(ProgressBar bar, String task, int total) {
        this.bar = bar;
        this.task = task;
        this.total = total;
        this.nextLine = total / 10;
    }

    static Progress start(String task, int total) {
        boolean terminal = System.console() != null;
        ProgressBar bar = terminal ? new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUnit(" img", 1).showSpeed().build() : null;
        return new Progress(bar, task, total);
    }

    void update(int done, double loss) {
        double rate = done / ((System.nanoTime() - start) / 1e9);
        if (bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage(String.format("loss %.3f", loss));
        } else if (done >= nextLine) {
            System.out.printf("  %s: %,d/%,d images, loss %.3f, %,.0f images/s%n", task, done, total, loss, rate);
            nextLine += Math.max(1, total / 10);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
