package io.kraft.generator;

import java.util.Set;

/** Rules and helpers for turning spec names into Java identifiers and literals. */
final class JavaNames {
    private static final Set<String> KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
            "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
            "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
            "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
            "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "var",
            "record", "yield", "sealed", "permits", "_");

    private JavaNames() {
    }

    static boolean isKeyword(String name) {
        return KEYWORDS.contains(name);
    }

    /** A lowerCamelCase identifier: a lower-case ASCII letter, then ASCII letters and digits. */
    static boolean isLowerCamel(String name) {
        return !name.isEmpty() && name.charAt(0) >= 'a' && name.charAt(0) <= 'z' && alphanumeric(name);
    }

    /** An UpperCamelCase identifier: an upper-case ASCII letter, then ASCII letters and digits. */
    static boolean isUpperCamel(String name) {
        return !name.isEmpty() && name.charAt(0) >= 'A' && name.charAt(0) <= 'Z' && alphanumeric(name);
    }

    private static boolean alphanumeric(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    static String capitalize(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** A Java string literal for {@code s}. */
    static String stringLiteral(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7E) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
