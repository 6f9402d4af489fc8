internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The pool lane: requests a worker answers while their connection is suspended.
extension Server {
    /// Runs a job on a worker: the handler's response, or 503 when the job was cancelled
    /// before it started or its work stopped part-way.
    func run(_ job: Job) {
        var response: Response
        if job.cancellation.isCancelled {
            response = cancelled(job)
        } else {
            response = handler(job.request)
            if job.cancellation.workStopped { response = cancelled(job) }
        }
        pool.finished(job)
        answer(job, with: response)
    }

    /// Hands a job's response to its connection: libmicrohttpd calls the handler again once the
    /// connection is resumed, and the handler queues what is stored here.
    func answer(_ job: Job, with response: Response) {
        job.state.pending = response
        MHD_resume_connection(job.connection)
    }

    func cancelled(_ job: Job) -> Response {
        var response: Response
        if job.cancellation.reason == .shutdown {
            response = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the server is shutting down and could not finish this request; retry"))
        } else {
            response = configuration.refusal(Refusal(status: 503, title: "Service Unavailable", detail: "the request took longer than the \(Server.seconds(configuration.requestDeadlineSeconds)) s request deadline and its work was stopped; ask for less (fewer themes or checks, ?suggestions=none) or retry when the server is less busy"))
        }
        response.headers.append(Header(name: "Retry-After", value: job.cancellation.reason == .shutdown ? "1" : "5"))
        response.route = job.route
        return response
    }

    /// The reason phrase of the statuses the server writes itself.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Requests waiting for a worker, running on one, refused for a full queue, and cancelled.
    public var poolStatistics: (queued: Int, running: Int, rejected: Int, cancelled: Int) {
        let s = pool.statistics
        return (s.queued, s.running, s.rejected, s.cancelled)
    }

    /// Answers every pool request now: queued ones get 503 at once, running ones are asked to
    /// stop (and get 503 if they do). For the end of a shutdown's grace period.
    public func cancelPending() {
        for job in pool.cancelAll(stop: false) { answer(job, with: cancelled(job)) }
    }
}
