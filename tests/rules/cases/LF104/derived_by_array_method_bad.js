// A job store kept in one JSON file that every CLI process opens. The
// cleanup reads the jobs, makes a new array from them with map(), and
// writes that back with no lock: a job another process enqueued or updated
// in between is lost. LF104 at the read.
const fs = require("fs");
const path = require("path");

const JOBS_FILE = path.join(__dirname, "data", "jobs.json");

class JobStore {
  loadJobs() {
    return JSON.parse(fs.readFileSync(JOBS_FILE, "utf8"));
  }

  saveJobs(jobs) {
    fs.writeFileSync(JOBS_FILE, JSON.stringify(jobs, null, 2));
  }

  releaseStale(aliveWorkers) {
    const jobs = this.loadJobs();
    const next = jobs.map((job) => {
      if (job.lockedBy && !aliveWorkers.includes(job.lockedBy)) {
        return { ...job, lockedBy: undefined, state: "pending" };
      }
      return job;
    });
    this.saveJobs(next);
  }
}

module.exports = new JobStore();
