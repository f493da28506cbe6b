package autoscheduler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Starts an embedded Neo4j Community DBMS for development and CI: Bolt on
 * 127.0.0.1:PORT (no TLS), HTTP/HTTPS off, authentication off, everything
 * (databases, transaction logs, debug.log) under the home directory.
 *
 * <pre>
 *   java -Xmx1g -cp 'target/classes:target/lib/*' autoscheduler.Neo4jLauncher \
 *        --home DIR --bolt-port 7687 [--pagecache-mb 256]
 * </pre>
 *
 * Prints one line starting with "NEO4J READY" to stdout once the default
 * database answers a query; SIGTERM/SIGINT shut the DBMS down cleanly.
 */
public final class Neo4jLauncher {

    private Neo4jLauncher() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of("neo4j-home");
        int boltPort = 7687;
        long pageCacheMb = 256;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                v = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--home" -> home = Path.of(v != null ? v : value(args, ++i, a));
                case "--bolt-port" -> boltPort = Integer.parseInt(v != null ? v : value(args, ++i, a));
                case "--pagecache-mb" -> pageCacheMb = Long.parseLong(v != null ? v : value(args, ++i, a));
                case "-h", "--help" -> {
                    System.out.println("usage: Neo4jLauncher [--home DIR] [--bolt-port N] [--pagecache-mb N]");
                    return;
                }
                default -> {
                    System.err.println("Neo4jLauncher: unknown argument " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (boltPort < 1 || boltPort > 65535) {
            System.err.println("Neo4jLauncher: bad --bolt-port " + boltPort);
            System.exit(2);
        }
        home = home.toAbsolutePath().normalize();
        Files.createDirectories(home);

        long started = System.nanoTime();
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.default_listen_address, new SocketAddress("127.0.0.1"))
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                // No anonymous usage reports from development and CI machines.
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("NEO4J STOPPING");
            System.out.flush();
            try {
                dbms.shutdown();
            } catch (RuntimeException e) {
                System.err.println("Neo4jLauncher: shutdown failed: " + e);
            } finally {
                stopped.countDown();
            }
            System.out.println("NEO4J STOPPED");
            System.out.flush();
        }, "neo4j-launcher-shutdown"));

        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        if (!db.isAvailable(Duration.ofMinutes(5).toMillis())) {
            System.err.println("Neo4jLauncher: database 'neo4j' did not become available");
            System.exit(1);
        }
        String version = db.executeTransactionally(
                "CALL dbms.components() YIELD name, versions, edition "
                        + "RETURN name + ' ' + versions[0] + ' ' + edition AS v",
                Map.of(),
                r -> r.hasNext() ? String.valueOf(r.next().get("v")) : "unknown");

        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.println("NEO4J READY bolt://127.0.0.1:" + boltPort + " (" + version + ", home " + home
                + ", started in " + ms + " ms)");
        System.out.flush();

        // Keep the JVM alive until a signal runs the shutdown hook.
        stopped.await();
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println("Neo4jLauncher: " + flag + " needs a value");
            System.exit(2);
        }
        return args[i];
    }
}
