package dev.ein4j.backend;

import dev.ein4j.error.EinopsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds backends and says which one runs new tensors.
 *
 * <p>Choice, first match wins: {@link #use(String)}; the system property {@code ein4j.backend};
 * the environment variable {@code EIN4J_BACKEND}; otherwise the available backend of highest
 * priority ({@code reference} when no other is on the class path). {@link #current()} tells which
 * one is active. Backends are created once, on first use.
 */
public final class Backends {

    /** The system property that names the backend. */
    public static final String PROPERTY = "ein4j.backend";
    /** The environment variable that names the backend. */
    public static final String ENVIRONMENT = "EIN4J_BACKEND";

    private static final Map<String, BackendProvider> PROVIDERS = discover();
    private static final Map<String, Backend> CREATED = new LinkedHashMap<>();
    private static volatile Backend current;

    private Backends() {
    }

    /**
     * The providers by name, in class-path order. Nothing is probed here: a provider's priority and
     * availability may load a native driver (OpenCL), which a program that names its backend never
     * needs.
     */
    private static Map<String, BackendProvider> discover() {
        Map<String, BackendProvider> byName = new LinkedHashMap<>();
        ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader())
                .forEach(provider -> byName.putIfAbsent(provider.name(), provider));
        return byName;
    }

    /**
     * Probes every provider on the class path (loading native drivers where a provider needs them).
     *
     * @return the names of the backends on the class path that can run here, preferred first
     */
    public static List<String> available() {
        List<BackendProvider> found = new ArrayList<>(PROVIDERS.values());
        found.removeIf(provider -> !safelyAvailable(provider));
        found.sort(Comparator.comparingInt(Backends::safePriority).reversed());
        return found.stream().map(BackendProvider::name).toList();
    }

    private static int safePriority(BackendProvider provider) {
        try {
            return provider.priority();
        } catch (RuntimeException | LinkageError unavailable) {
            return Integer.MIN_VALUE;
        }
    }

    /** @return the backend that runs new tensors */
    public static Backend current() {
        Backend active = current;
        if (active == null) {
            synchronized (Backends.class) {
                if (current == null) {
                    current = get(defaultName());
                }
                active = current;
            }
        }
        return active;
    }

    /**
     * Makes a backend the one that runs new tensors (tensors made earlier stay where they are and
     * are copied over when combined with new ones).
     *
     * @param name a name from {@link #available()}
     * @return the backend
     * @throws EinopsException if no such backend is available
     */
    public static Backend use(String name) {
        Backend backend = get(name);
        current = backend;
        return backend;
    }

    /**
     * @param name a backend's name
     * @return that backend, created on first use
     * @throws EinopsException if no such backend is available
     */
    public static synchronized Backend get(String name) {
        Backend backend = CREATED.get(name);
        if (backend != null) {
            return backend;
        }
        BackendProvider provider = PROVIDERS.get(name);
        if (provider == null || !safelyAvailable(provider)) {
            throw new EinopsException("backend '" + name + "' is not available; available: " + available());
        }
        backend = provider.create();
        CREATED.put(name, backend);
        return backend;
    }

    /**
     * Makes the configured backend current ({@value #PROPERTY} or {@value #ENVIRONMENT}), else
     * {@code fallback}, without probing other providers: a program that prefers one backend loads
     * no other backend's driver unless asked to.
     *
     * @param fallback the backend's name when none is configured
     * @return the backend now current
     * @throws EinopsException if that backend is not available
     */
    public static Backend useConfiguredOr(String fallback) {
        Objects.requireNonNull(fallback, "fallback");
        String configured = configuredName();
        return use(configured != null ? configured : fallback);
    }

    /** @return the name set by the property or the environment variable, or null */
    private static String configuredName() {
        String chosen = System.getProperty(PROPERTY);
        if (chosen == null || chosen.isBlank()) {
            chosen = System.getenv(ENVIRONMENT);
        }
        return chosen != null && !chosen.isBlank() ? chosen.trim() : null;
    }

    private static String defaultName() {
        String configured = configuredName();
        if (configured != null) {
            return configured;
        }
        List<String> names = available();
        if (names.isEmpty()) {
            throw new EinopsException("no backend found on the class path");
        }
        return names.get(0);
    }

    private static boolean safelyAvailable(BackendProvider provider) {
        try {
            return provider.isAvailable();
        } catch (RuntimeException | LinkageError unavailable) {
            return false;
        }
    }
}
