package dev.ein4j.javac;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import dev.ein4j.javac.PatternMethod.EinMixRule;
import dev.ein4j.javac.PatternMethod.PatternRule;
import dev.ein4j.javac.PatternMethod.Rule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Visits the method calls and constructor calls of one attributed class, and checks the constant
 * pattern arguments of those that {@link PatternMethods} lists.
 */
final class PatternCallScanner extends TreePathScanner<Void, Void> {

    private final Trees trees;
    private final Reporter reporter;
    private final CompilationUnitTree unit;
    private final ConstantStrings constants;
    private final SourcePositions positions;

    PatternCallScanner(Trees trees, Reporter reporter, CompilationUnitTree unit) {
        this.trees = trees;
        this.reporter = reporter;
        this.unit = unit;
        this.constants = new ConstantStrings(trees);
        this.positions = trees.getSourcePositions();
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        check(trees.getElement(new TreePath(getCurrentPath(), call.getMethodSelect())), call.getArguments());
        return super.visitMethodInvocation(call, unused);
    }

    @Override
    public Void visitNewClass(NewClassTree call, Void unused) {
        check(trees.getElement(getCurrentPath()), call.getArguments());
        return super.visitNewClass(call, unused);
    }

    private void check(Element element, List<? extends ExpressionTree> arguments) {
        if (!(element instanceof ExecutableElement method) || !(method.getEnclosingElement() instanceof TypeElement owner)
                || !PatternMethods.isPatternMethodName(method.getSimpleName().toString())) {
            return;
        }
        // an anonymous subclass's constructor passes its arguments on to its superclass's
        if (owner.getNestingKind() == NestingKind.ANONYMOUS && owner.getSuperclass() instanceof DeclaredType parent) {
            owner = (TypeElement) parent.asElement();
        }
        List<String> parameters = new ArrayList<>();
        for (VariableElement parameter : method.getParameters()) {
            parameters.add(erasure(parameter));
        }
        Optional<Rule> rule = PatternMethods.ruleFor(owner.getQualifiedName().toString(),
                method.getSimpleName().toString(), parameters);
        rule.flatMap(found -> problem(found, arguments)).ifPresent(problem -> report(problem, arguments));
    }

    private Optional<Problem> problem(Rule rule, List<? extends ExpressionTree> arguments) {
        if (rule instanceof PatternRule pattern) {
            return constant(arguments, pattern.pattern())
                    .flatMap(value -> PatternCheck.check(pattern.pattern(), pattern.operation(), value));
        }
        EinMixRule einMix = (EinMixRule) rule;
        return constant(arguments, einMix.pattern()).flatMap(value -> new EinMixCheck(einMix, value,
                constant(arguments, einMix.weightShape()).orElse(null),
                einMix.biasShape() < 0 ? null : constant(arguments, einMix.biasShape()).orElse(null)).check());
    }

    private Optional<String> constant(List<? extends ExpressionTree> arguments, int index) {
        return index < arguments.size()
                ? constants.valueOf(new TreePath(getCurrentPath(), arguments.get(index))) : Optional.empty();
    }

    /** At the offending character when the argument is a literal written at the call, else at the argument. */
    private void report(Problem problem, List<? extends ExpressionTree> arguments) {
        ExpressionTree argument = arguments.get(problem.argument());
        long start = positions.getStartPosition(unit, argument);
        long offset = start;
        if (argument.getKind() == Tree.Kind.STRING_LITERAL && problem.column() > 0) {
            long inside = offsetInLiteral(argument, problem.column() - 1);
            offset = inside >= 0 ? inside : start;
        }
        reporter.error(unit, argument, offset, problem.message());
    }

    private long offsetInLiteral(ExpressionTree literal, int index) {
        try {
            CharSequence source = unit.getSourceFile().getCharContent(true);
            Object value = ((LiteralTree) literal).getValue();
            return LiteralOffsets.offsetOf(source, (int) positions.getStartPosition(unit, literal),
                    (int) positions.getEndPosition(unit, literal), (String) value, index);
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    /** {@code java.lang.String}, {@code dev.ein4j.tensor.Tensor[]}, {@code int[][]}: type arguments dropped. */
    private static String erasure(VariableElement parameter) {
        TypeMirror type = parameter.asType();
        StringBuilder dimensions = new StringBuilder();
        while (type.getKind() == TypeKind.ARRAY) {
            dimensions.append("[]");
            type = ((ArrayType) type).getComponentType();
        }
        String base = type instanceof DeclaredType declared
                ? ((TypeElement) declared.asElement()).getQualifiedName().toString() : type.toString();
        return base + dimensions;
    }
}
