package io.kraft.generator;

/** An inclusive range of API versions as spec files write it: "3+", "0-12", "5" or "none". */
public record Versions(short lowest, short highest) {
    /** The empty range. */
    public static final Versions NONE = new Versions((short) 0, (short) -1);
    /** Upper bound of an open range ("3+"). */
    public static final short OPEN = Short.MAX_VALUE;

    public static Versions of(int lowest, int highest) {
        return new Versions((short) lowest, (short) highest);
    }

    /** Parses "N+", "N-M", "N" or "none"; throws IllegalArgumentException naming the text otherwise. */
    public static Versions parse(String text) {
        String t = text.trim();
        if (t.equals("none")) {
            return NONE;
        }
        try {
            Versions v;
            if (t.endsWith("+")) {
                v = of(parseVersion(t.substring(0, t.length() - 1)), OPEN);
            } else if (t.indexOf('-') > 0) {
                int dash = t.indexOf('-');
                v = of(parseVersion(t.substring(0, dash)), parseVersion(t.substring(dash + 1)));
            } else {
                short one = parseVersion(t);
                v = of(one, one);
            }
            if (v.isEmpty()) {
                throw new IllegalArgumentException("version range '" + text + "' is empty (write \"none\")");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid version range '" + text + "'");
        }
    }

    private static short parseVersion(String s) {
        short v = Short.parseShort(s);
        if (v < 0 || v == OPEN) {
            throw new NumberFormatException(s);
        }
        return v;
    }

    public boolean isEmpty() {
        return highest < lowest;
    }

    public boolean isOpen() {
        return !isEmpty() && highest == OPEN;
    }

    public boolean contains(int version) {
        return version >= lowest && version <= highest;
    }

    /** Whether every version of {@code other} is in this range (the empty range is in every range). */
    public boolean containsAll(Versions other) {
        return other.isEmpty() || (!isEmpty() && other.lowest >= lowest && other.highest <= highest);
    }

    public Versions intersect(Versions other) {
        short lo = (short) Math.max(lowest, other.lowest);
        short hi = (short) Math.min(highest, other.highest);
        return hi < lo ? NONE : new Versions(lo, hi);
    }

    /** The smallest range holding both. */
    public Versions hull(Versions other) {
        if (isEmpty()) {
            return other;
        }
        if (other.isEmpty()) {
            return this;
        }
        return of(Math.min(lowest, other.lowest), Math.max(highest, other.highest));
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        if (highest == OPEN) {
            return lowest + "+";
        }
        return lowest == highest ? Short.toString(lowest) : lowest + "-" + highest;
    }
}
