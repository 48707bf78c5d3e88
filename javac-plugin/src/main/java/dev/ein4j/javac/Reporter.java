package dev.ein4j.javac;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Reports the plugin's diagnostics through javac, so they are counted, printed and returned to
 * a {@code DiagnosticListener} like javac's own.
 *
 * <p>javac's public API reports a message only at a tree's position, and no tree starts inside a
 * string literal. {@link Trees#printMessage} takes the file, and with it the line and column,
 * from the compilation unit it is given and only the offset from the tree; so a message meant
 * for an offset inside a literal is given a tree, parsed from blank text, that starts at that
 * offset. Where that cannot be done, the message goes to the argument's own tree: the line is
 * still the call's.
 */
final class Reporter {

    private final Trees trees;

    Reporter(Trees trees) {
        this.trees = trees;
    }

    /**
     * @param unit the compilation unit
     * @param fallback the tree to report at if the offset cannot be used
     * @param offset the character offset in the unit's source
     * @param message the message
     */
    void error(CompilationUnitTree unit, Tree fallback, long offset, String message) {
        Tree at = offset >= 0 ? treeStartingAt(offset) : null;
        trees.printMessage(Diagnostic.Kind.ERROR, message, at == null ? fallback : at, unit);
    }

    /**
     * The plugin failed, not the user's code: a warning, and this class's patterns are left to run time.
     *
     * @param unit the compilation unit
     * @param at where the plugin was when it failed
     * @param failure what went wrong
     */
    void internalFailure(CompilationUnitTree unit, Tree at, Throwable failure) {
        trees.printMessage(Diagnostic.Kind.WARNING, Ein4jPatternsPlugin.NAME + ": an internal failure stopped the "
                + "pattern checks of this class, its patterns are left to run time (" + failure + ")", at, unit);
    }

    /** A class declaration parsed from blank text, starting (and positioned) at the given offset. */
    private static Tree treeStartingAt(long offset) {
        if (offset > Integer.MAX_VALUE - 64) {
            return null;
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            return null;
        }
        String text = " ".repeat((int) offset) + "class Position {}";
        JavaFileObject blank = new SimpleJavaFileObject(URI.create("string:///Position.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
        try {
            JavacTask task = (JavacTask) compiler.getTask(null, null, diagnostic -> { }, List.of("-proc:none"), null,
                    List.of(blank));
            CompilationUnitTree parsed = task.parse().iterator().next();
            Tree declaration = parsed.getTypeDecls().get(0);
            long start = Trees.instance(task).getSourcePositions().getStartPosition(parsed, declaration);
            return start == offset ? declaration : null;
        } catch (IOException | RuntimeException cannotParse) {
            return null;
        }
    }
}
