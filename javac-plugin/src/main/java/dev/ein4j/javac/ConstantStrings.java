package dev.ein4j.javac;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * The value of a String-typed argument when it is a compile-time constant: a literal, a constant
 * variable ({@code static final} fields and {@code final} locals with constant initializers, whose
 * values javac has already folded), a concatenation of those with constants of any type, in
 * parentheses or cast to String. javac's public API does not expose the constant value of an
 * arbitrary expression, so the few forms a pattern is written in are folded here; any other
 * expression (arithmetic inside a concatenation, a conditional) counts as not constant and is
 * left to run time.
 */
final class ConstantStrings {

    private static final Object NOT_CONSTANT = new Object();

    private final Trees trees;

    ConstantStrings(Trees trees) {
        this.trees = trees;
    }

    /**
     * @param expression an attributed expression
     * @return its value, if it is a constant String
     */
    Optional<String> valueOf(TreePath expression) {
        Map<Tree, Object> values = new IdentityHashMap<>();
        for (TreePath path : childrenFirst(expression)) {
            Object value = evaluate(path, values);
            if (value == NOT_CONSTANT) {
                return Optional.empty();
            }
            values.put(path.getLeaf(), value);
        }
        Object value = values.get(expression.getLeaf());
        return value instanceof String string ? Optional.of(string) : Optional.empty();
    }

    /** Every node below the expression that folding looks at, each after its operands (no recursion). */
    private static List<TreePath> childrenFirst(TreePath root) {
        List<TreePath> preorder = new ArrayList<>();
        Deque<TreePath> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            TreePath path = pending.pop();
            preorder.add(path);
            Tree leaf = path.getLeaf();
            if (leaf instanceof BinaryTree binary && leaf.getKind() == Tree.Kind.PLUS) {
                pending.push(new TreePath(path, binary.getLeftOperand()));
                pending.push(new TreePath(path, binary.getRightOperand()));
            } else if (leaf instanceof ParenthesizedTree parenthesized) {
                pending.push(new TreePath(path, parenthesized.getExpression()));
            } else if (leaf instanceof TypeCastTree cast) {
                pending.push(new TreePath(path, cast.getExpression()));
            }
        }
        List<TreePath> order = new ArrayList<>(preorder.size());
        for (int k = preorder.size() - 1; k >= 0; k--) {
            order.add(preorder.get(k));
        }
        return order;
    }

    private Object evaluate(TreePath path, Map<Tree, Object> values) {
        Tree leaf = path.getLeaf();
        switch (leaf.getKind()) {
            case STRING_LITERAL, CHAR_LITERAL, INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, BOOLEAN_LITERAL:
                return ((LiteralTree) leaf).getValue();
            case IDENTIFIER, MEMBER_SELECT: {
                Element element = trees.getElement(path);
                Object constant = element instanceof VariableElement variable ? variable.getConstantValue() : null;
                return constant == null ? NOT_CONSTANT : constant;
            }
            case PARENTHESIZED:
                return values.get(((ParenthesizedTree) leaf).getExpression());
            case TYPE_CAST: {
                Object value = values.get(((TypeCastTree) leaf).getExpression());
                return value instanceof String && isString(trees.getTypeMirror(path)) ? value : NOT_CONSTANT;
            }
            case PLUS: {
                // string concatenation only: numeric addition is not folded (see the class comment)
                BinaryTree binary = (BinaryTree) leaf;
                if (!isString(trees.getTypeMirror(path))) {
                    return NOT_CONSTANT;
                }
                return String.valueOf(values.get(binary.getLeftOperand())) + values.get(binary.getRightOperand());
            }
            default:
                return NOT_CONSTANT;
        }
    }

    private static boolean isString(TypeMirror type) {
        return type != null && type.getKind() == TypeKind.DECLARED
                && ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().contentEquals("java.lang.String");
    }
}
