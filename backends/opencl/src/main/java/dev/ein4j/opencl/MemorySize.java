package dev.ein4j.opencl;

import dev.ein4j.error.EinopsException;
import java.util.Locale;

/** Reads a size in bytes as configured by a system property: {@code 1073741824}, {@code 512k}, {@code 64m}, {@code 4g}. */
final class MemorySize {

    private MemorySize() {
    }

    /**
     * @param property the property's name, for the message
     * @param text its value, or null
     * @param absent the size when it is not set
     * @return the size in bytes
     * @throws EinopsException if the text is not a positive size
     */
    static long parse(String property, String text, long absent) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        String value = text.trim().toLowerCase(Locale.ROOT);
        int shift = switch (value.charAt(value.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        try {
            long number = Long.parseLong(shift == 0 ? value : value.substring(0, value.length() - 1));
            if (number <= 0 || number > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException("out of range");
            }
            return number << shift;
        } catch (NumberFormatException bad) {
            throw new EinopsException("-D" + property + "=" + text + " is not a size (a positive number of bytes, or one with k, m or g)");
        }
    }
}
