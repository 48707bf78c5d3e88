package dev.ein4j.examples.fashion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A PNG of the training loss (per step, smoothed) and the test accuracy (per epoch), by XChart. */
final class TrainingPlot {

    private TrainingPlot() {
    }

    static void write(Path file, List<Double> losses, List<Double> accuracies, int stepsPerEpoch) {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("ein4j: Fashion-MNIST CNN")
                .xAxisTitle("epoch").yAxisTitle("training loss").build();
        List<Double> epochs = new ArrayList<>();
        List<Double> smoothed = new ArrayList<>();
        double average = losses.isEmpty() ? 0 : losses.get(0);
        for (int step = 0; step < losses.size(); step++) {
            average = 0.95 * average + 0.05 * losses.get(step); // an exponential moving average
            epochs.add((step + 1) / (double) stepsPerEpoch);
            smoothed.add(average);
        }
        XYSeries loss = chart.addSeries("training loss (moving average)", epochs, smoothed);
        loss.setMarker(SeriesMarkers.NONE);
        List<Double> epochNumbers = new ArrayList<>();
        for (int epoch = 1; epoch <= accuracies.size(); epoch++) {
            epochNumbers.add((double) epoch);
        }
        XYSeries accuracy = chart.addSeries("test accuracy", epochNumbers, accuracies);
        accuracy.setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, "test accuracy");
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        XYStyler styler = chart.getStyler();
        styler.setXAxisDecimalPattern("0.#");
        styler.setXAxisTickMarkSpacingHint(80); // a tick every 80 pixels or so, not one per step's label width
        // below the plot, side by side: inside, the legend covered the loss curve's first epoch
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        try {
            String name = file.toString();
            String base = name.toLowerCase(java.util.Locale.ROOT).endsWith(".png") ? name.substring(0, name.length() - 4) : name;
            BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
