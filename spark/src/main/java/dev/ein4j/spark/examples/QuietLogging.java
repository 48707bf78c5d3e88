package dev.ein4j.spark.examples;

/**
 * Spark logs at INFO to standard error unless told otherwise; the example keeps warnings only, with
 * its own Log4j 2 configuration, unless the user names one ({@code -Dlog4j2.configurationFile=...}).
 * The configuration is a resource of the examples only, not of the library: a library that brought
 * one would override its users'.
 */
final class QuietLogging {

    private static final String PROPERTY = "log4j2.configurationFile";

    private QuietLogging() {
    }

    /** Points Log4j at the examples' configuration, before Spark first logs. */
    static void unlessConfigured() {
        if (System.getProperty(PROPERTY) == null && System.getProperty("log4j.configurationFile") == null) {
            java.net.URL configuration = QuietLogging.class.getResource("log4j2-examples.properties");
            if (configuration != null) {
                System.setProperty(PROPERTY, configuration.toString());
            }
        }
    }
}
