package io.kraft.broker.protocol;

/**
 * An inclusive range of API versions, written as in the protocol guide: "3+", "0-2", "5" or "none".
 */
public record Versions(short lowest, short highest) {
    /** The empty range. */
    public static final Versions NONE = new Versions((short) 0, (short) -1);
    /** Every version from 0 up. */
    public static final Versions ALL = new Versions((short) 0, Short.MAX_VALUE);

    public static Versions of(int lowest, int highest) {
        return new Versions((short) lowest, (short) highest);
    }

    /** Parses "N+", "N-M", "N" or "none". */
    public static Versions parse(String text) {
        String t = text.trim();
        if (t.equals("none")) {
            return NONE;
        }
        try {
            if (t.endsWith("+")) {
                return of(Short.parseShort(t.substring(0, t.length() - 1)), Short.MAX_VALUE);
            }
            int dash = t.indexOf('-');
            if (dash > 0) {
                return of(Short.parseShort(t.substring(0, dash)), Short.parseShort(t.substring(dash + 1)));
            }
            short v = Short.parseShort(t);
            return of(v, v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid version range '" + text + "'");
        }
    }

    public boolean contains(short version) {
        return version >= lowest && version <= highest;
    }

    public boolean isEmpty() {
        return highest < lowest;
    }

    /** The versions common to both ranges. */
    public Versions intersect(Versions other) {
        short lo = (short) Math.max(lowest, other.lowest);
        short hi = (short) Math.min(highest, other.highest);
        return hi < lo ? NONE : new Versions(lo, hi);
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        if (highest == Short.MAX_VALUE) {
            return lowest + "+";
        }
        return lowest == highest ? Short.toString(lowest) : lowest + "-" + highest;
    }
}
