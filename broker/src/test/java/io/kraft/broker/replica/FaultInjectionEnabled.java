package io.kraft.broker.replica;

import io.kraft.storage.io.FaultInjection;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Turns the storage layer's fault injection on for one test class and off again after it. */
final class FaultInjectionEnabled implements BeforeAllCallback, AfterAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        FaultInjection.setEnabled(true);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        FaultInjection.setEnabled(false);
    }
}
