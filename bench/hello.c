// The ceiling of this stack: a minimal hello-world server on bare libmicrohttpd, in the same
// threading mode and thread count as `contrast serve` (poll, internal thread pool, ITC).
// Answers every request on the second handler call, as contrast does, with a small JSON body;
// or, given a file as third argument, with that file's bytes and the headers contrast adds to
// its JSON answers: the same bytes on the wire as a given answer of the service, with none of
// its work (bench/cpu_per_request.py compares the two).
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char small[] = "{\"status\":\"ok\"}";
static const char *body = small;
static size_t body_size = sizeof small - 1;
static int service_headers = 0;

static enum MHD_Result handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    static int marker;
    if (*req_cls == NULL) { *req_cls = &marker; return MHD_YES; }
    if (*upload_data_size != 0) { *upload_data_size = 0; return MHD_YES; }
    struct MHD_Response *response = MHD_create_response_from_buffer(body_size, (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    if (service_headers) {
        MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
        MHD_add_response_header(response, "Cache-Control", "no-store");
    }
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    unsigned short port = argc > 1 ? (unsigned short)atoi(argv[1]) : 8081;
    unsigned int threads = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
    if (argc > 3) {
        FILE *file = fopen(argv[3], "rb");
        static char loaded[1 << 16];
        if (file == NULL) { fprintf(stderr, "cannot read %s\n", argv[3]); return 1; }
        body_size = fread(loaded, 1, sizeof loaded, file);
        int more = fgetc(file) != EOF;
        fclose(file);
        if (more) { fprintf(stderr, "%s is over %zu bytes\n", argv[3], sizeof loaded); return 1; }
        body = loaded;
        service_headers = 1;
    }
    struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC, port, NULL, NULL, handler, NULL,
                                                 MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 1024,
                                                 MHD_OPTION_LISTEN_BACKLOG_SIZE, 512, MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "cannot start on port %u\n", port); return 1; }
    printf("hello server on 127.0.0.1:%u with %u threads\n", port, threads);
    fflush(stdout);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(daemon);
    return 0;
}
