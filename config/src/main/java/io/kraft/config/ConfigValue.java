package io.kraft.config;

/**
 * A setting's effective value and where it came from, as DescribeConfigs reports it.
 *
 * @param name       the setting described
 * @param value      its typed value (null for an unset optional setting)
 * @param source     where the value came from
 * @param sourceName the key that supplied it: the name itself, or a broker synonym for a topic setting
 * @param shownValue the value as configuration text, passwords hidden
 */
public record ConfigValue(String name, Object value, ConfigSource source, String sourceName, String shownValue) {
    @Override
    public String toString() {
        return name + "=" + shownValue + " (" + source + (sourceName.equals(name) ? "" : " via " + sourceName) + ")";
    }
}
