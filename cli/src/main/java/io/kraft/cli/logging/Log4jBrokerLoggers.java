package io.kraft.cli.logging;

import io.kraft.broker.config.BrokerLoggers;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;

/** The kraft-cli process's log levels in Log4j 2, for the BROKER_LOGGER config resource. */
public final class Log4jBrokerLoggers implements BrokerLoggers {

    @Override
    public Map<String, String> levels() {
        LoggerContext context = context();
        Map<String, String> levels = new TreeMap<>();
        levels.put(ROOT, context.getRootLogger().getLevel().name());
        // Configured loggers (packages too) and every logger a class has asked for, with its effective level.
        for (LoggerConfig config : context.getConfiguration().getLoggers().values()) {
            if (!config.getName().isEmpty()) {
                levels.put(config.getName(), config.getLevel().name());
            }
        }
        for (Logger logger : context.getLoggers()) {
            if (!logger.getName().isEmpty()) {
                levels.put(logger.getName(), logger.getLevel().name());
            }
        }
        return levels;
    }

    @Override
    public void setLevel(String logger, String level) {
        Level parsed = Level.valueOf(level);
        if (ROOT.equals(logger)) {
            Configurator.setRootLevel(parsed);
        } else {
            Configurator.setLevel(logger, parsed);
        }
    }

    @Override
    public void unsetLevel(String logger) {
        if (ROOT.equals(logger)) {
            return;
        }
        LoggerContext context = context();
        Configuration configuration = context.getConfiguration();
        LoggerConfig own = configuration.getLoggers().get(logger);
        if (own == null) {
            return;
        }
        if (own.getAppenderRefs().isEmpty()) {
            // Only a level was set here: without it the logger inherits its parent's.
            configuration.removeLogger(logger);
        } else {
            // A logger the configuration file gives its own file keeps it, at its parent's level.
            LoggerConfig parent = own.getParent();
            own.setLevel(parent == null ? configuration.getRootLogger().getLevel() : parent.getLevel());
        }
        context.updateLoggers();
    }

    private static LoggerContext context() {
        return (LoggerContext) LogManager.getContext(false);
    }
}
