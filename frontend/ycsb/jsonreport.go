package ycsb

// JSONReportExporter is the exporter name of our own JSON report
// (measurement/jsonreport, written by runreport); the reference's
// exporters live in measurement/export.
const JSONReportExporter = "jsonreport"
