package dev.ein4j.spark.examples;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the examples with plain {@code java -jar}: Spark is a provided dependency (spark-submit and
 * clusters bring their own), so when it is not on the class path the examples start again in a class
 * loader over this jar and the Spark jars the build copied beside it ({@code target/lib/}).
 */
final class BundledSpark {

    private BundledSpark() {
    }

    /** @return whether Spark's classes can be loaded here */
    static boolean present() {
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, BundledSpark.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }

    /**
     * Calls {@code main(args)} of a class again, loaded with this jar and {@code lib/*.jar} beside it.
     *
     * @param mainClass the class whose main to call
     * @param args its arguments
     * @throws Exception what the main method throws
     */
    static void relaunch(Class<?> mainClass, String[] args) throws Exception {
        Path jar = Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path lib = jar.resolveSibling("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("Spark is not on the class path and there is no " + lib + " beside " + jar
                    + ": run with spark-submit, or build the jar with Maven (which copies Spark's jars there)");
        }
        List<URL> urls = new ArrayList<>();
        urls.add(jar.toUri().toURL());
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path file : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(file.toUri().toURL());
            }
        }
        URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(mainClass.getName()).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException failed) {
            throw failed.getCause() instanceof Exception exception ? exception : failed;
        }
    }
}
