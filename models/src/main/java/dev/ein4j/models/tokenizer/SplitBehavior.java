package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
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
            case MERGED_WITH_PREVIOUS -> mergeWithPrevious(spans);
            case MERGED_WITH_NEXT -> mergeWithNext(spans);
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

    private static List<Span> mergeWithPrevious(List<Span> spans) {
        List<Span> out = new ArrayList<>();
        boolean previousMatch = false;
        for (Span span : spans) {
            if (span.match() && !previousMatch && !out.isEmpty()) {
                Span last = out.remove(out.size() - 1);
                out.add(new Span(last.start(), span.end(), false));
            } else {
                out.add(new Span(span.start(), span.end(), false));
            }
            previousMatch = span.match();
        }
        return out;
    }

    /** The mirror image of {@link #mergeWithPrevious}: folds from the end, then restores the order. */
    private static List<Span> mergeWithNext(List<Span> spans) {
        List<Span> reversed = new ArrayList<>();
        boolean previousMatch = false;
        for (int i = spans.size() - 1; i >= 0; i--) {
            Span span = spans.get(i);
            if (span.match() && !previousMatch && !reversed.isEmpty()) {
                Span following = reversed.remove(reversed.size() - 1);
                reversed.add(new Span(span.start(), following.end(), false));
            } else {
                reversed.add(new Span(span.start(), span.end(), false));
            }
            previousMatch = span.match();
        }
        List<Span> out = new ArrayList<>(reversed.size());
        for (int i = reversed.size() - 1; i >= 0; i--) {
            out.add(reversed.get(i));
        }
        return out;
    }
}
