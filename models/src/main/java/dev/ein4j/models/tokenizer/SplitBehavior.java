package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a splitting pre-tokenizer does with the spans its pattern matched (Hugging Face's
 * {@code SplitDelimiterBehavior}). For the text "the-final--countdown" split on "-":
 *
 * <pre>
 * REMOVED              "the", "final", "countdown"
 * ISOLATED             "the", "-", "final", "-", "-", "countdown"
 * MERGED_WITH_PREVIOUS "the-", "final-", "-", "countdown"
 * MERGED_WITH_NEXT     "the", "-final", "-", "-countdown"
 * CONTIGUOUS           "the", "-", "final", "--", "countdown"
 * </pre>
 */
enum SplitBehavior {
    REMOVED("Removed"),
    ISOLATED("Isolated"),
    MERGED_WITH_PREVIOUS("MergedWithPrevious"),
    MERGED_WITH_NEXT("MergedWithNext"),
    CONTIGUOUS("Contiguous");

    private final String jsonName;

    SplitBehavior(String jsonName) {
        this.jsonName = jsonName;
    }

    /** @return the name in tokenizer.json */
    String jsonName() {
        return jsonName;
    }

    /**
     * @param spans spans covering a text in order
     * @return the spans of the pieces to keep, in order
     */
    List<Span> apply(List<Span> spans) {
        return switch (this) {
            case REMOVED -> spans.stream().filter(span -> !span.match()).toList();
            case ISOLATED -> spans;
            case CONTIGUOUS -> mergeRuns(spans);
            case MERGED_WITH_PREVIOUS -> mergeIntoNeighbour(spans, true);
            case MERGED_WITH_NEXT -> mergeIntoNeighbour(spans, false);
        };
    }

    private static List<Span> mergeRuns(List<Span> spans) {
        List<Span> out = new ArrayList<>();
        boolean previousMatch = false;
        for (Span span : spans) {
            if (span.match() == previousMatch && !out.isEmpty()) {
                Span last = out.remove(out.size() - 1);
                out.add(new Span(last.start(), span.end(), false));
            } else {
                out.add(new Span(span.start(), span.end(), false));
            }
            previousMatch = span.match();
        }
        return out;
    }

    /**
     * Hugging Face's fold for MergedWithPrevious (forward) and MergedWithNext (the same fold run from
     * the end): a match that follows a gap joins the piece before it, in the direction of the fold.
     */
    private static List<Span> mergeIntoNeighbour(List<Span> spans, boolean forward) {
        List<Span> out = new ArrayList<>();
        boolean previousMatch = false;
        for (int k = 0; k < spans.size(); k++) {
            Span span = spans.get(forward ? k : spans.size() - 1 - k);
            if (span.match() && !previousMatch && !out.isEmpty()) {
                Span neighbour = out.remove(out.size() - 1);
                out.add(forward ? new Span(neighbour.start(), span.end(), false) : new Span(span.start(), neighbour.end(), false));
            } else {
                out.add(new Span(span.start(), span.end(), false));
            }
            previousMatch = span.match();
        }
        if (!forward) {
            Collections.reverse(out);
        }
        return out;
    }
}
