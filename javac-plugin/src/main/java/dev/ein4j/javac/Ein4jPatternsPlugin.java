package dev.ein4j.javac;

import com.sun.source.util.JavacTask;
import com.sun.source.util.Plugin;

/**
 * The javac plugin {@code Ein4jPatterns}: every compile-time-constant pattern passed to one of
 * ein4j's pattern methods is checked with the library's own parser and validator when its class
 * has been attributed, and a pattern the library would reject is a compilation error with the
 * library's message, at the offending character of the literal.
 *
 * <pre>
 * javac -processorpath ein4j-javac-plugin.jar -Xplugin:Ein4jPatterns Model.java
 * Model.java:12: error: axis 'd' is on the right side but not on the left; rearrange keeps every axis
 *         Tensor y = x.rearrange("b c -&gt; b c d");
 *                                           ^
 * </pre>
 *
 * <p>Patterns that are not constants are left to run time, as are the checks that need a shape.
 * The plugin takes no options.
 */
public final class Ein4jPatternsPlugin implements Plugin {

    /** The name javac knows the plugin by, as in {@code -Xplugin:Ein4jPatterns}. */
    public static final String NAME = "Ein4jPatterns";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public void init(JavacTask task, String... arguments) {
        task.addTaskListener(new AnalyzedClassListener(task));
    }
}
