package io.kraft.metadata.controller;

/** Kafka's topic name rules: 1 to 249 characters from [a-zA-Z0-9._-], and not "." or "..". */
public final class TopicNames {
    public static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** Why the name is illegal, or null if it is legal. */
    public static String invalidReason(String name) {
        if (name == null || name.isEmpty()) {
            return "Topic name is empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "Topic name cannot be \".\" or \"..\"";
        }
        if (name.length() > MAX_LENGTH) {
            return "Topic name is " + name.length() + " characters long; the limit is " + MAX_LENGTH;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return "Topic name " + name + " contains '" + c + "'; legal characters are [a-zA-Z0-9._-]";
            }
        }
        return null;
    }

    /**
     * The name with '.' replaced by '_': two topics with the same collision key would share metric names,
     * so Kafka refuses the second one.
     */
    public static String collisionKey(String name) {
        return name.replace('.', '_');
    }
}
