package ycsb

// JSONReportExporter is the exporter name of our own JSON report
// (report/jsonreport, written by report); the reference's
// exporters live in measurement/export.
const JSONReportExporter = "jsonreport"
