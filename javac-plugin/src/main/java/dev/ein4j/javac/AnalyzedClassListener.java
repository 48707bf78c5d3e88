package dev.ein4j.javac;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;

/**
 * Scans each top-level class once javac has attributed it (the end of its ANALYZE event), when
 * every expression has its type and every name its element; nested and local classes are scanned
 * with the class that holds them. A failure of the plugin itself never fails the compilation: it
 * becomes a warning naming the plugin, and that class's patterns are left to run time.
 */
final class AnalyzedClassListener implements TaskListener {

    private final Trees trees;
    private final Reporter reporter;

    AnalyzedClassListener(JavacTask task) {
        this.trees = Trees.instance(task);
        this.reporter = new Reporter(trees);
    }

    @Override
    public void finished(TaskEvent event) {
        if (event.getKind() != TaskEvent.Kind.ANALYZE || event.getTypeElement() == null
                || event.getCompilationUnit() == null) {
            return;
        }
        TypeElement type = event.getTypeElement();
        if (type.getEnclosingElement() == null || type.getEnclosingElement().getKind() != ElementKind.PACKAGE) {
            return;
        }
        CompilationUnitTree unit = event.getCompilationUnit();
        TreePath path = null;
        try {
            path = trees.getPath(type);
            if (path != null) {
                new PatternCallScanner(trees, reporter, unit).scan(path, null);
            }
        } catch (RuntimeException | LinkageError | StackOverflowError failure) {
            reporter.internalFailure(unit, path == null ? unit : path.getLeaf(), failure);
        }
    }
}
